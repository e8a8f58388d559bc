// Package housework is the household track read from the agent's side: a
// planner over text. It knows only what a player of the text game knows —
// the task sentence, the room's opening description, the commands sent
// with what came back, and the user's answers — and decides the next
// command or question, the way package grounding does for the tabletop.
//
// [ParseInstruction] reads ALFWorld-style task sentences of the six task
// types ("put a hot apple in fridge.", "clean the mug and put it in
// coffeemachine.", "put something cool in countertop.", "find two pen and
// put them in drawer."). A [Belief] folds the observations into what is
// where: arrivals, openings, takes, puts, treatments, lamps, examinations;
// a failing command ("Nothing happens.", or a reason) changes nothing.
// [Decide] plans from the belief: it explores receptacles it has not seen
// inside, likely ones first when it may use the household knowledge table
// (general knowledge of where things are kept, not the episode's truth),
// opens closed ones, takes the object, treats it or finds the lamp, and
// puts it. It asks the user, with the ambiguity tag of the tabletop, when:
//
//   - the task does not name the object (underspecified);
//   - it says "the X" and two or more X have been seen (multiplicity);
//   - every place an X could be has been searched, closed ones opened, and
//     none was found (absence). An object hidden in closed receptacles is
//     found by opening them, never reported absent.
//
// A [Planner] is Decide for a player that keeps its trial, told each turn
// as it is played instead of reading them all again at every decision.
//
// [Diagnose] reads a failed trial against the planner and says what went
// wrong, for reflections.
//
// It is shared by the rules agent and the simulated model, which is why it
// is a package of its own (agents/llm must not import agents). It imports
// scenes only, for the knowledge table.
package housework
