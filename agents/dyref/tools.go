package dyref

import (
	"fmt"
	"math/bits"
	"strings"
)

// Tool is one reflection tool the router may choose, as a bit of a
// [Subset]. Plan construction is not among them: the agent runs it
// whenever the subset is not empty, to combine what the chosen tools said.
type Tool uint8

// The selectable tools, in the order of their bits. Their names are those
// of the agents package's reflection records.
const (
	KeyRules   Tool = 1 << iota // the rule of the task type, from a solved game
	Experience                  // what the failed trial did that the next can reuse
	Lesson                      // the one constraint of the lesson pool the trial broke
	Ambiguity                   // whether the instruction left something open, and what to ask
)

// AllTools are the selectable tools in bit order.
var AllTools = [...]Tool{KeyRules, Experience, Lesson, Ambiguity}

// PaperTools is how many of AllTools, from the first, are the DyRef
// paper's: key rules, experience and lesson. Ambiguity is this project's
// extension, last so that a router over the paper's tools numbers its
// subsets as one over all four does.
const PaperTools = 3

// Subsets is how many subsets of all the tools there are: the classes of
// a router over AllTools, and the size of the arrays that hold a number
// per subset whatever a router's tools.
const Subsets = 1 << len(AllTools)

// FirstTools is the subset of the first n of AllTools: the tools of a
// router trained over n of them.
func FirstTools(n int) Subset { return Subset(1<<n - 1) }

// Name returns the tool's name: "key_rules", "experience", "lesson" or
// "ambiguity"; another value prints as "tool(N)".
func (t Tool) Name() string {
	switch t {
	case KeyRules:
		return "key_rules"
	case Experience:
		return "experience"
	case Lesson:
		return "lesson"
	case Ambiguity:
		return "ambiguity"
	}
	return fmt.Sprintf("tool(%d)", uint8(t))
}

func (t Tool) String() string { return t.Name() }

// toolNames are the names of the first n of AllTools, in order: the
// router file's "tools" field.
func toolNames(n int) []string {
	out := make([]string, n)
	for i, t := range AllTools[:n] {
		out[i] = t.Name()
	}
	return out
}

// Subset is a set of tools, 0 (none) to Subsets−1 (all four); its number
// is the router's class index.
type Subset uint8

// Has reports whether the subset holds the tool.
func (s Subset) Has(t Tool) bool { return uint8(s)&uint8(t) != 0 }

// Tools returns the subset's tools in bit order.
func (s Subset) Tools() []Tool {
	var out []Tool
	for _, t := range AllTools {
		if s.Has(t) {
			out = append(out, t)
		}
	}
	return out
}

// Len returns how many tools the subset holds.
func (s Subset) Len() int { return bits.OnesCount8(uint8(s) & (Subsets - 1)) }

// String writes the subset as its tools' names joined by "+" in bit order
// ("key_rules+lesson"), or "none".
func (s Subset) String() string {
	if s >= Subsets {
		return fmt.Sprintf("subset(%d)", uint8(s))
	}
	if s == 0 {
		return "none"
	}
	var names []string
	for _, t := range s.Tools() {
		names = append(names, t.Name())
	}
	return strings.Join(names, "+")
}

// ParseSubset reads what String writes; the names may come in any order
// but each only once.
func ParseSubset(text string) (Subset, error) {
	s := strings.TrimSpace(text)
	if s == "none" {
		return 0, nil
	}
	if s == "" {
		return 0, fmt.Errorf("subset %q: empty; want tool names joined by \"+\", or \"none\"", text)
	}
	var out Subset
	for _, part := range strings.Split(s, "+") {
		part = strings.TrimSpace(part)
		var found Tool
		for _, t := range AllTools {
			if t.Name() == part {
				found = t
			}
		}
		switch {
		case found == 0:
			return 0, fmt.Errorf("subset %q: unknown tool %q; want %s, or \"none\"", text, part, strings.Join(toolNames(len(AllTools)), ", "))
		case out.Has(found):
			return 0, fmt.Errorf("subset %q: %s named twice", text, part)
		}
		out |= Subset(found)
	}
	return out, nil
}
