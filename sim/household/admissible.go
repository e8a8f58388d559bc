package household

import (
	"slices"

	"github.com/ambibench/ambibench/scenes"
)

// Admissible returns the commands that would succeed now, sorted, in the
// game's grammar: every "go to" but the one to where the agent stands,
// "look", "inventory" and "help", and what can be done at the receptacle
// the agent faces with what it sees there and what it holds. Thoughts are
// always accepted and not listed.
func (g *Game) Admissible() []string {
	out := []string{"help", "inventory", "look"}
	for r := range g.h.Receptacles {
		if r != g.h.At {
			out = append(out, "go to "+g.h.Receptacles[r].Name)
		}
	}
	held := g.h.Held
	if held != scenes.Nowhere {
		out = append(out, "examine "+g.h.Items[held].Name)
	}
	at := g.h.At
	if at == scenes.Nowhere {
		slices.Sort(out)
		return out
	}
	rec := g.h.Receptacles[at].Name
	out = append(out, "examine "+rec)
	if g.ix.recKind[at].Openable {
		if g.h.Receptacles[at].Open {
			out = append(out, "close "+rec)
		} else {
			out = append(out, "open "+rec)
		}
	}
	if !g.closed(at) {
		for i := range g.h.Items {
			if g.h.Items[i].In != at {
				continue
			}
			name := g.h.Items[i].Name
			out = append(out, "examine "+name)
			k := &g.ix.itemKind[i]
			if k.Pickupable && held == scenes.Nowhere {
				out = append(out, "take "+name+" from "+rec)
			}
			if k.Toggleable {
				out = append(out, "use "+name)
			}
		}
		if held != scenes.Nowhere {
			out = append(out, PutCommand(g.opts.Grammar, g.h.Items[held].Name, rec))
		}
	}
	if held != scenes.Nowhere {
		k := &g.ix.itemKind[held]
		name := g.h.Items[held].Name
		switch g.h.Receptacles[at].Kind {
		case scenes.KindMicrowave:
			if k.Heatable {
				out = append(out, "heat "+name+" with "+rec)
			}
		case scenes.KindFridge:
			if k.Coolable {
				out = append(out, "cool "+name+" with "+rec)
			}
		case scenes.KindSinkBasin:
			if k.Cleanable {
				out = append(out, "clean "+name+" with "+rec)
			}
		}
	}
	slices.Sort(out)
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
