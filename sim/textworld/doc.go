// Package textworld is the text world of the household track: an
// ALFWorld-like game over a [scenes.House], with ALFWorld's commands, its
// rules and its texts, fixed by its seed and fast enough to play a whole
// benchmark in seconds.
//
// # Playing
//
// [New] makes a [Game] from a house (it keeps a copy), [Game.Reset] puts
// the agent in the middle of the room and returns the room's description,
// and [Game.Step] carries out one command and returns what the agent
// observes:
//
//	g, err := household.New(house, household.Options{})
//	intro := g.Reset() // "You are in the middle of a room. Looking quickly around you, you see a cabinet 2, …, and a toaster 1."
//	obs := g.Step("go to fridge 1")
//
// The task's sentence ("Your task is to: …") is the task layer's to add
// (see tasks/alfworld). [Game.State] is the state for goal predicates,
// [Game.Steps] the commands taken since the reset, failed ones and
// thoughts included, and [Game.Admissible] the commands that would
// succeed now, sorted.
//
// # Commands and rules
//
// The rules are ALFWorld's PDDL domain (alfred.pddl); the agent stands at
// a place, and several receptacles may stand at one ([scenes.Receptacle]
// Loc), so what can be done at one of them can be done at all:
//
//	go to R                     any receptacle at another place, in one step
//	open R, close R             at R's place; only a receptacle that opens
//	take O from R               at R's place, R open if it opens, O in R, hand empty
//	put O in/on R (0.3)         at R's place, R open, O in hand, and R can
//	move O to R (0.3 and 0.4)     contain O (ALFWorld's canContain, [scenes.CanContain])
//	heat O with R               O in hand, at R's place, R a microwave (closed is fine)
//	cool O with R               O in hand, at R's place, R a fridge
//	clean O with R              O in hand, at R's place, R a sinkbasin
//	use O                       a lamp in a receptacle at the agent's place: on, and it stays on
//	examine X                   a receptacle at the agent's place, or an object in view or in hand
//	inventory, look, help       help in 0.4 only, as ALFWorld's grammars have it
//	describe O                  the project's own: an object's colour and owner
//	think: …                    answered "OK.", changes nothing, counts as a step
//
// The agent holds one object at a time. Heating makes an object hot and
// no longer cold; cooling the reverse; cleaning makes it clean. Whether an
// object can be picked up, heated, cooled, cleaned or switched is the
// knowledge table's word ([scenes.Kinds]), which is ALFWorld's. [Parse]
// ignores case, extra spaces and one final full stop; any other string is
// a command that fails. A command that fails changes nothing.
//
// # Texts
//
// The observations are ALFWorld's, byte for byte (alfred.twl2); with
// grammar v0.3 (the default):
//
//	go to countertop 1   You arrive at loc 12. On the countertop 1, you see a apple 1, and a mug 2.
//	go to fridge 1       You arrive at loc 3. The fridge 1 is closed.
//	go to cabinet 4      You arrive at loc 7. On the cabinet 4, you see nothing.   (a cabinet that does not open)
//	open fridge 1        You open the fridge 1. The fridge 1 is open. In it, you see a egg 1.
//	close fridge 1       You close the fridge 1.
//	take apple 1 from …  You pick up the apple 1 from the countertop 1.
//	put apple 1 in/on …  You put the apple 1 in/on the fridge 1.
//	heat apple 1 with …  You heat the apple 1 using the microwave 1.   (cool, clean alike)
//	use desklamp 1       You turn on the desklamp 1.   (again: the same)
//	examine apple 1      This is a hot apple 1.   (or "There's nothing special about apple 1.")
//	examine mug 1        This is a normal mug 1. In it, you see nothing.   (a movable receptacle)
//	examine desklamp 1   This desklamp 1 is on.
//	describe mug 1       The mug 1 is green. It belongs to Sam.
//	inventory            You are carrying: a apple 1.
//	look                 You are facing the cabinet 2, and cabinet 1. Next to it, you see nothing.
//	(anything failing)   Nothing happens.
//
// Contents are listed by kind, then by number from the highest ("a bowl
// 2, a bowl 1, a bread 1"), as ALFWorld's transcripts show. With
// [GrammarV04] an arrival names the receptacle ("You arrive at countertop
// 1. On the countertop 1, …"), putting down is "move O to R" alone → "You
// move the apple 1 to the fridge 1.", and help prints ALFWorld 0.4's help.
// With [FeedbackExplain] a failing command says why instead of "Nothing
// happens." ("The fridge 1 is closed; open it first."). The opening's
// banner and task are the task layer's to add (tasks/alfworld
// Game.Intro).

// # Determinism and speed
//
// A game draws no random numbers: the house fixes every text, and lists
// come in ALFWorld's order. A step (parse, update, render) takes well
// under a microsecond and allocates once, a reset about a microsecond;
// see the package's benchmarks.
//
// # Search
//
// [ShortestPlan] searches breadth-first over the engine itself for the
// fewest commands that reach a goal; the task layer's expert planner is
// checked against it.
package textworld
