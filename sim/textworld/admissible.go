package textworld

import (
	"slices"

	"github.com/ambibench/ambibench/scenes"
)

// Admissible returns the commands that would succeed now, sorted, in the
// game's grammar, each written by Command.Format so that Parse reads it
// back as the command it is: every "go to" but those to the place where
// the agent stands, "look", "inventory" (and "help" where the grammar has
// it), and what can be done at the receptacles of the agent's place with
// what it sees there and what it holds. Thoughts are always accepted and
// not listed; so is "describe", which is not ALFWorld's.
func (g *Game) Admissible() []string {
	out := []string{"inventory", "look"}
	if g.v04 {
		out = append(out, "help")
	}
	gr := g.opts.Grammar
	for r := range g.h.Receptacles {
		if !g.h.SamePlace(g.h.At, r) {
			out = append(out, Command{Verb: VerbGoTo, Target: g.h.Receptacles[r].Name}.Format(gr))
		}
	}
	held := g.h.Held
	if held != scenes.Nowhere {
		out = append(out, Command{Verb: VerbExamine, Object: g.h.Items[held].Name}.Format(gr))
	}
	if g.h.At == scenes.Nowhere {
		slices.Sort(out)
		return out
	}
	for at := range g.h.Receptacles {
		if g.h.SamePlace(g.h.At, at) {
			out = g.admissibleAt(out, at)
		}
	}
	slices.Sort(out)
	return out
}

// admissibleAt appends what can be done at receptacle at, which stands at
// the agent's place.
func (g *Game) admissibleAt(out []string, at int) []string {
	gr := g.opts.Grammar
	held := g.h.Held
	rec := g.h.Receptacles[at].Name
	out = append(out, Command{Verb: VerbExamine, Object: rec}.Format(gr))
	if g.h.Receptacles[at].Openable {
		if g.h.Receptacles[at].Open {
			out = append(out, Command{Verb: VerbClose, Target: rec}.Format(gr))
		} else {
			out = append(out, Command{Verb: VerbOpen, Target: rec}.Format(gr))
		}
	}
	for i := range g.h.Items {
		if g.h.Items[i].In != at {
			continue
		}
		name := g.h.Items[i].Name
		k := &g.ix.itemKind[i]
		if k.Toggleable {
			out = append(out, Command{Verb: VerbUse, Object: name}.Format(gr))
		}
		if g.closed(at) {
			continue
		}
		out = append(out, Command{Verb: VerbExamine, Object: name}.Format(gr))
		if k.Pickupable && held == scenes.Nowhere {
			out = append(out, Command{Verb: VerbTake, Object: name, Target: rec}.Format(gr))
		}
	}
	if held == scenes.Nowhere {
		return out
	}
	name := g.h.Items[held].Name
	if !g.closed(at) && scenes.CanContain(g.h.Receptacles[at].Kind, g.h.Items[held].Kind) {
		out = append(out, Command{Verb: VerbPut, Object: name, Target: rec}.Format(gr))
	}
	k := &g.ix.itemKind[held]
	switch g.h.Receptacles[at].Kind {
	case scenes.KindMicrowave:
		if k.Heatable {
			out = append(out, Command{Verb: VerbHeat, Object: name, Target: rec}.Format(gr))
		}
	case scenes.KindFridge:
		if k.Coolable {
			out = append(out, Command{Verb: VerbCool, Object: name, Target: rec}.Format(gr))
		}
	case scenes.KindSinkBasin:
		if k.Cleanable {
			out = append(out, Command{Verb: VerbClean, Object: name, Target: rec}.Format(gr))
		}
	}
	return out
}

// PutCommand writes the command that puts obj in or on rec in a grammar's
// words.
func PutCommand(grammar, obj, rec string) string {
	if grammar == GrammarV04 {
		return "move " + obj + " to " + rec
	}
	return "put " + obj + " in/on " + rec
}
