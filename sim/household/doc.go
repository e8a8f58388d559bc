// Package household is the text world of the household track: an
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
// (see tasks/household). [Game.State] is the state for goal predicates,
// [Game.Steps] the commands taken since the reset, failed ones and
// thoughts included, and [Game.Admissible] the commands that would
// succeed now, sorted.
//
// # Commands and rules
//
//	go to R                     any receptacle, from anywhere, in one step
//	open R, close R             at R; only cabinets, drawers, fridges, microwaves, safes
//	take O from R               at R, R open if it opens, O in R, hand empty
//	put O in/on R, move O to R  both accepted in either grammar; at R, R open, O in hand
//	heat O with R               O in hand, at R, R a microwave (closed is fine)
//	cool O with R               O in hand, at R, R a fridge
//	clean O with R              O in hand, at R, R a sinkbasin
//	use O                       a lamp, at the receptacle it stands on: on, then off
//	examine X                   the receptacle one is at, or an object in view or in hand
//	inventory, look, help
//	think: …                    answered "OK.", changes nothing, counts as a step
//
// The agent holds one object at a time. Heating makes an object hot and
// no longer cold; cooling the reverse; cleaning makes it clean. Whether an
// object can be picked up, heated, cooled, cleaned or switched is the
// knowledge table's word ([scenes.Kinds]). [Parse] ignores case, extra
// spaces and one final full stop; any other string is a command that
// fails. A command that fails changes nothing.
//
// # Texts
//
// The observations are ALFWorld's; with grammar v0.3 (the default):
//
//	go to countertop 1   You arrive at loc 12. On the countertop 1, you see a apple 1, and a mug 2.
//	go to fridge 1       You arrive at loc 3. The fridge 1 is closed.
//	open fridge 1        You open the fridge 1. The fridge 1 is open. In it, you see a egg 1.
//	close fridge 1       You close the fridge 1.
//	take apple 1 from …  You pick up the apple 1 from the countertop 1.
//	put apple 1 in/on …  You put the apple 1 in/on the fridge 1.
//	heat apple 1 with …  You heat the apple 1 using the microwave 1.   (cool, clean alike)
//	use desklamp 1       You turn on the desklamp 1.
//	examine apple 1      This is a hot red apple 1.
//	inventory            You are carrying: a apple 1.
//	look                 You are facing the fridge 1. Next to it, you see nothing.
//	(anything failing)   Nothing happens.
//
// With [GrammarV04] an arrival names the receptacle ("You arrive at
// countertop 1. On the countertop 1, …"), and putting down reads "move O
// to R" → "You move the apple 1 to the fridge 1.", as ALFWorld 0.4 does.
// With [FeedbackExplain] a failing command says why instead of "Nothing
// happens." ("The fridge 1 is closed; open it first."). Examining an
// object also tells its colour and owner ("This is a green mug 2. It
// belongs to Sam."), which ALFWorld's objects lack and the household's
// instructions may use.
//
// # Determinism and speed
//
// A game draws no random numbers: the house fixes every text, and lists
// come in the house's order. A step (parse, update, render) takes well
// under a microsecond and allocates once, a reset about a microsecond;
// see the package's benchmarks.
//
// # Search
//
// [ShortestPlan] searches breadth-first over the engine itself for the
// fewest commands that reach a goal; the task layer's expert planner is
// checked against it.
package household
