package grounding

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ambibench/ambibench/agents/internal/memo"
)

// Move is one pick-and-place an instruction asks for. Place is nil when the
// instruction gives no destination ("move the red block away").
type Move struct {
	Pick  Ref
	Place *Ref
}

var (
	noDestination = regexp.MustCompile(`^(?:can you |could you |please )?(?:move|put|take) (.+?) (?:away|somewhere else|somewhere)$`)
	placeIt       = regexp.MustCompile(`^(.+?) and (?:place|put) it (?:in|on|into|onto|at) (.+)$`)
	prepPlace     = regexp.MustCompile(`^(.+?) (?:in|on|into|onto|at) (the .+|[a-z]+ (?:block|bowl) \d+)$`)
	leadingVerb   = regexp.MustCompile(`^(?:first |and |then )*(?:please )?(?:pick up|put|move|place|take)? ?`)
)

// ParseInstruction reads a tabletop instruction into its moves. Clauses are
// joined by ", then"; each is "<verb> <pick> <prep> <place>", "pick up
// <pick> and place it <prep> <place>", or, with no destination, "move
// <pick> away".
func ParseInstruction(s string) ([]Move, error) {
	if p, ok := instructions.Get(s); ok {
		return cloneMoves(p.moves), p.err
	}
	moves, err := parseInstruction(s)
	// The key is a copy: s may be cut from a prompt the table should not
	// keep alive.
	instructions.Put(strings.Clone(s), parsed{cloneMoves(moves), err})
	return moves, err
}

// instructions keeps the latest instructions read. The simulated model
// reads the episode's instruction again at every call, through three
// regular expressions a clause: that was a fifteenth of a tabletop run's
// CPU. An episode needs one at a time, a worker one or two.
var instructions = memo.New[string, parsed](64)

type parsed struct {
	moves []Move
	err   error
}

// cloneMoves copies moves, their references and the anchors of those, so
// that what a caller changes of the moves it was given is its own.
func cloneMoves(moves []Move) []Move {
	if moves == nil {
		return nil
	}
	out := make([]Move, len(moves))
	for i, m := range moves {
		out[i].Pick = m.Pick.clone()
		if m.Place != nil {
			p := m.Place.clone()
			out[i].Place = &p
		}
	}
	return out
}

func parseInstruction(s string) ([]Move, error) {
	text := normalize(s)
	if text == "" {
		return nil, fmt.Errorf("instruction: empty")
	}
	if m := noDestination.FindStringSubmatch(text); m != nil {
		pick, err := ParseRef(m[1])
		if err != nil {
			return nil, fmt.Errorf("instruction %q: %w", s, err)
		}
		return []Move{{Pick: pick}}, nil
	}
	var moves []Move
	for i, clause := range strings.Split(text, ", then ") {
		mv, err := parseClause(clause)
		if err != nil {
			return nil, fmt.Errorf("instruction %q, clause %d: %w", s, i+1, err)
		}
		moves = append(moves, mv)
	}
	return moves, nil
}

func parseClause(clause string) (Move, error) {
	c := leadingVerb.ReplaceAllString(strings.TrimSpace(clause), "")
	var pickText, placeText string
	if m := placeIt.FindStringSubmatch(c); m != nil {
		pickText, placeText = m[1], m[2]
	} else if m := prepPlace.FindStringSubmatch(c); m != nil {
		pickText, placeText = m[1], m[2]
	} else {
		return Move{}, fmt.Errorf("no destination in %q", clause)
	}
	pick, err := ParseRef(pickText)
	if err != nil {
		return Move{}, err
	}
	place, err := ParseRef(placeText)
	if err != nil {
		return Move{}, err
	}
	return Move{Pick: pick, Place: &place}, nil
}

var answerLead = regexp.MustCompile(`^(?:i mean|i meant|take|use|pick|put it|place it|move it)(?: (?:in|on|into|onto|at))? `)

// ParseAnswer reads the object or place a user's answer names: "I mean red
// block 2.", "Take the green block instead.", "Put it in the blue bowl."
// Earlier sentences ("There is no such block here.") are context and are
// skipped.
func ParseAnswer(s string) (Ref, error) {
	sentences := strings.FieldsFunc(normalize(s), func(r rune) bool { return r == '.' || r == '!' || r == '?' })
	for i := len(sentences) - 1; i >= 0; i-- {
		t := normalize(sentences[i])
		t = strings.TrimSuffix(t, " instead")
		if loc := answerLead.FindStringIndex(t); loc != nil {
			return ParseRef(t[loc[1]:])
		}
		if r, err := ParseRef(t); err == nil && !r.Vague {
			return r, nil
		}
	}
	return Ref{}, fmt.Errorf("answer %q names no object or place", s)
}

var handRequest = regexp.MustCompile(`(?:put|move|place|bring) (.+?) (?:in|into|to|on) the shared workspace`)

// ParseHandRequest reads a partner's message asking to bring something to
// the shared workspace: "Please put the red block in the shared workspace."
func ParseHandRequest(s string) (Ref, error) {
	m := handRequest.FindStringSubmatch(normalize(s))
	if m == nil {
		return Ref{}, fmt.Errorf("message %q asks for nothing to bring to the shared workspace", s)
	}
	return ParseRef(m[1])
}
