package household

import (
	"slices"

	"github.com/ambibench/ambibench/scenes"
)

// Admissible returns the commands that would succeed now, sorted, in the
// game's grammar, each written by Command.Format so that Parse reads it
// back as the command it is: every "go to" but the one to where the agent stands,
// "look", "inventory" and "help", and what can be done at the receptacle
// the agent faces with what it sees there and what it holds. Thoughts are
// always accepted and not listed.
func (g *Game) Admissible() []string {
	out := []string{"help", "inventory", "look"}
	for r := range g.h.Receptacles {
		if r != g.h.At {
			out = append(out, Command{Verb: VerbGoTo, Target: g.h.Receptacles[r].Name}.Format(g.opts.Grammar))
		}
	}
	held := g.h.Held
	if held != scenes.Nowhere {
		out = append(out, Command{Verb: VerbExamine, Object: g.h.Items[held].Name}.Format(g.opts.Grammar))
	}
	at := g.h.At
	if at == scenes.Nowhere {
		slices.Sort(out)
		return out
	}
	rec := g.h.Receptacles[at].Name
	out = append(out, Command{Verb: VerbExamine, Object: rec}.Format(g.opts.Grammar))
	if g.ix.recKind[at].Openable {
		if g.h.Receptacles[at].Open {
			out = append(out, Command{Verb: VerbClose, Target: rec}.Format(g.opts.Grammar))
		} else {
			out = append(out, Command{Verb: VerbOpen, Target: rec}.Format(g.opts.Grammar))
		}
	}
	if !g.closed(at) {
		for i := range g.h.Items {
			if g.h.Items[i].In != at {
				continue
			}
			name := g.h.Items[i].Name
			out = append(out, Command{Verb: VerbExamine, Object: name}.Format(g.opts.Grammar))
			k := &g.ix.itemKind[i]
			if k.Pickupable && held == scenes.Nowhere {
				out = append(out, Command{Verb: VerbTake, Object: name, Target: rec}.Format(g.opts.Grammar))
			}
			if k.Toggleable {
				out = append(out, Command{Verb: VerbUse, Object: name}.Format(g.opts.Grammar))
			}
		}
		if held != scenes.Nowhere {
			out = append(out, Command{Verb: VerbPut, Object: g.h.Items[held].Name, Target: rec}.Format(g.opts.Grammar))
		}
	}
	if held != scenes.Nowhere {
		k := &g.ix.itemKind[held]
		name := g.h.Items[held].Name
		switch g.h.Receptacles[at].Kind {
		case scenes.KindMicrowave:
			if k.Heatable {
				out = append(out, Command{Verb: VerbHeat, Object: name, Target: rec}.Format(g.opts.Grammar))
			}
		case scenes.KindFridge:
			if k.Coolable {
				out = append(out, Command{Verb: VerbCool, Object: name, Target: rec}.Format(g.opts.Grammar))
			}
		case scenes.KindSinkBasin:
			if k.Cleanable {
				out = append(out, Command{Verb: VerbClean, Object: name, Target: rec}.Format(g.opts.Grammar))
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
