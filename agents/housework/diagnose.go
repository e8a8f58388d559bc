package housework

import (
	"fmt"
	"strings"
)

// Mistake kinds Diagnose reports.
const (
	MistakeLoop         = "loop"         // the same command again and again
	MistakeSkip         = "skip"         // put without heating, cooling or cleaning
	MistakeMultiplicity = "multiplicity" // took one of several without asking which
	MistakeInstance     = "instance"     // took another one than the user meant
	MistakeAbsence      = "absence"      // went on without asking when nothing was found
	MistakeVague        = "vague"        // guessed what a vague task meant
	MistakeHidden       = "hidden"       // called something absent before opening every closed place
	MistakeTag          = "tag"          // asked with another tag than the situation called for
	MistakeSteps        = "steps"        // ran out of steps
)

// Mistake is one thing a trial did wrong, as the planner sees it.
type Mistake struct {
	Kind string
	// Subject is what it was about: the repeated command, the kind, the
	// treatment verb and kind ("heat egg"), the tag.
	Subject string
	// Turn is the index of the turn where it happened.
	Turn int
	// Text is a reflection that names it and says what to do instead; it
	// holds every one of Keys.
	Text string
}

// Keys returns the words a reflection must hold to name a mistake: a
// reader of reflections (the simulated model) matches its own slips
// against them.
func (m Mistake) Keys() []string {
	switch m.Kind {
	case MistakeLoop:
		return []string{m.Subject}
	case MistakeSkip:
		return strings.Fields(m.Subject)
	case MistakeMultiplicity:
		return []string{m.Subject, "which"}
	case MistakeInstance:
		return []string{m.Subject, "meant"}
	case MistakeAbsence:
		return []string{"no " + m.Subject}
	case MistakeVague:
		return []string{"did not say"}
	case MistakeHidden:
		return []string{m.Subject, "closed"}
	case MistakeTag:
		return []string{m.Subject, "tag"}
	}
	return []string{m.Subject, "steps"}
}

// Mentioned reports whether some reflection holds every key, ignoring
// case.
func Mentioned(reflections []string, keys []string) bool {
	for _, r := range reflections {
		r = strings.ToLower(r)
		all := true
		for _, k := range keys {
			if !strings.Contains(r, strings.ToLower(k)) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// Diagnose reads a trial that did not reach its goal and says what went
// wrong: at each turn it asks the planner what it would have done and
// compares. It reports each mistake once, in the order they happened; when
// it finds none, it reports running out of steps.
func Diagnose(s State) []Mistake {
	var out []Mistake
	seen := map[string]bool{}
	add := func(m Mistake) {
		if k := m.Kind + "\x00" + m.Subject; !seen[k] {
			seen[k] = true
			out = append(out, m)
		}
	}
	s.Slips = Slips{}
	prev := ""
	var t Task
	for k, tu := range s.Turns {
		before := s
		before.Turns = s.Turns[:k]
		p, bad := prepare(before, false)
		if bad != nil {
			return []Mistake{{Kind: MistakeSteps, Text: "I could not read the task (" + bad.Why + "); next time I will read it again carefully."}}
		}
		d := p.next()
		t = p.t
		if tu.IsAsk() {
			switch {
			case d.Kind == Act && d.Step == StepSearch && tu.Tag == "absence":
				add(Mistake{Kind: MistakeHidden, Subject: t.Kind, Turn: k, Text: fmt.Sprintf(
					"I told the user there was no %s before opening every closed receptacle; next time I will open the closed ones first, since a %s may be inside.", t.Kind, t.Kind)})
			case d.Kind != Ask || d.Tag != tu.Tag:
				want := "no question"
				if d.Kind == Ask {
					want = "the " + d.Tag + " tag"
				}
				add(Mistake{Kind: MistakeTag, Subject: tu.Tag, Turn: k, Text: fmt.Sprintf(
					"I asked the user with the %s tag when the situation called for %s; next time I will ask only when the task is unclear, and with the tag that fits.", tu.Tag, want)})
			}
			continue
		}
		if tu.Command == prev {
			add(Mistake{Kind: MistakeLoop, Subject: tu.Command, Turn: k, Text: fmt.Sprintf(
				"I sent %q again and again, and nothing changed; next time, when a command does nothing, I will try another instead of repeating it.", tu.Command)})
		}
		prev = tu.Command
		if d.Kind == Ask && tu.Command != d.Command {
			switch d.Tag {
			case "multiplicity":
				add(p.multiplicityMistake(k, d.Options))
			case "absence":
				add(Mistake{Kind: MistakeAbsence, Subject: t.Kind, Turn: k, Text: fmt.Sprintf(
					"There was no %s, and I went on without asking; next time, when there is no %s anywhere, I will ask the user what to use.", t.Kind, t.Kind)})
			case "underspecified":
				add(Mistake{Kind: MistakeVague, Turn: k, Text: "The task did not say what to use, and I guessed instead of asking; next time I will ask the user what is meant."})
			}
		}
		if obj, ok := strings.CutPrefix(tu.Command, "take "); ok {
			obj, _, _ = strings.Cut(obj, " from ")
			if i, known := p.b.Item(obj); known && p.b.Items[i].Kind == t.Kind {
				it := p.b.Items[i]
				switch {
				case p.askedWhich && p.which != (Which{}) && !p.which.Matches(it):
					add(Mistake{Kind: MistakeInstance, Subject: t.Kind, Turn: k, Text: fmt.Sprintf(
						"The user told me which %s was meant, but I took the %s; next time I will take the %s the user meant, and examine them first when the user names a colour or an owner.", t.Kind, it.Name, t.Kind)})
				case t.Definite && !p.askedWhich && d.Kind == Act && d.Step == StepSearch:
					add(p.multiplicityMistake(k, nil))
				}
			}
		}
		if m, ok := p.skipped(k, tu); ok {
			add(m)
		}
	}
	if len(out) == 0 {
		what := t.Kind
		if what == "" {
			what = "object"
		}
		out = append(out, Mistake{Kind: MistakeSteps, Subject: what, Turn: len(s.Turns), Text: fmt.Sprintf(
			"I ran out of steps on the %s; next time I will search first where a %s is usually kept, and not go back to places I have already seen.", what, what)})
	}
	return out
}

func (p *planner) multiplicityMistake(k int, options []string) Mistake {
	kind := p.t.Kind
	several := "there may have been more than one"
	if len(options) > 1 {
		several = "there were several (" + strings.Join(options, ", ") + ")"
	}
	return Mistake{Kind: MistakeMultiplicity, Subject: kind, Turn: k, Text: fmt.Sprintf(
		"The task said the %s and %s, but I took one without asking which; next time I will ask the user which %s is meant.", kind, several, kind)}
}

// skipped reports a put of an object the task wants treated, untreated,
// in or on a receptacle of the destination's kind.
func (p *planner) skipped(k int, tu Turn) (Mistake, bool) {
	t := p.t
	if t.State == "" {
		return Mistake{}, false
	}
	var obj, to string
	var ok bool
	if rest, put := strings.CutPrefix(tu.Command, "put "); put {
		obj, to, ok = strings.Cut(rest, " in/on ")
	} else if rest, mv := strings.CutPrefix(tu.Command, "move "); mv {
		obj, to, ok = strings.Cut(rest, " to ")
	}
	if !ok || kindOf(to) != t.Dest || !strings.HasPrefix(tu.Observation, "You ") {
		return Mistake{}, false
	}
	i, known := p.b.Item(obj)
	if !known || p.b.Items[i].Kind != t.Kind || treated(p.b.Items[i], t.State) {
		return Mistake{}, false
	}
	v := t.Verb()
	return Mistake{Kind: MistakeSkip, Subject: v + " " + t.Kind, Turn: k, Text: fmt.Sprintf(
		"I put the %s in the %s without %s it first; next time I will %s the %s with the %s before putting it in the %s.",
		obj, to, gerund(v), v, t.Kind, t.Appliance(), t.Dest)}, true
}

func gerund(v string) string { return v + "ing" }
