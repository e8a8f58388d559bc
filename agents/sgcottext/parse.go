package sgcottext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is a reply the protocol does not allow: Reason says what is
// wrong, in words a model can be shown.
type Error struct{ Reason string }

func (e *Error) Error() string { return "not the SG-CoT protocol: " + e.Reason }

func errorf(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// Parse reads a reply: "THOUGHT:" and the reasoning, then "REQUEST:" and
// one request, or "FINAL_DECISIONS:" and a JSON list of pick_and_place
// actions, with nothing after either. Anything else is an *Error.
func Parse(text string) (Reply, error) {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, markThought) {
		return Reply{}, errorf("a reply starts with %q; this one starts with %s", markThought, quoteStart(s))
	}
	s = s[len(markThought):]
	if strings.Contains(s, markThought) {
		return Reply{}, errorf("%q appears twice; a reply has one thought", markThought)
	}
	type mark struct {
		name string
		at   int
	}
	var marks []mark
	for _, m := range []string{markRequest, markFinal} {
		for i := 0; ; {
			j := strings.Index(s[i:], m)
			if j < 0 {
				break
			}
			marks = append(marks, mark{m, i + j})
			i += j + len(m)
		}
	}
	switch len(marks) {
	case 0:
		return Reply{}, errorf("no %q or %q after the thought; a reply ends with one of them", markRequest, markFinal)
	case 1:
	default:
		return Reply{}, errorf("%d requests (%q or %q); a reply makes one and stops", len(marks), markRequest, markFinal)
	}
	m := marks[0]
	r := Reply{Thought: strings.TrimSpace(s[:m.at])}
	if r.Thought == "" {
		return Reply{}, errorf("the thought is empty; write the reasoning after %q", markThought)
	}
	rest := strings.TrimSpace(s[m.at+len(m.name):])
	if m.name == markFinal {
		moves, err := parseFinal(rest)
		if err != nil {
			return Reply{}, err
		}
		r.Moves = moves
		return r, nil
	}
	req, err := parseRequest(rest)
	if err != nil {
		return Reply{}, err
	}
	r.Request = req
	return r, nil
}

// quoteStart quotes the start of s for an error.
func quoteStart(s string) string {
	if s == "" {
		return "nothing (the reply is empty)"
	}
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}

// decision is one element of FINAL_DECISIONS as the protocol writes it.
type decision struct {
	Action      *string `json:"action"`
	PickObject  *string `json:"pick_object"`
	PlaceObject *string `json:"place_object"`
}

func parseFinal(s string) ([]Move, error) {
	if !strings.HasPrefix(s, "[") {
		return nil, errorf("%q is followed by %s; it takes a JSON list of actions, [] for none", markFinal, quoteStart(s))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	var list []json.RawMessage
	if err := dec.Decode(&list); err != nil {
		return nil, errorf("%s: %v", markFinal, err)
	}
	if tail := strings.TrimSpace(s[dec.InputOffset():]); tail != "" {
		return nil, errorf("text after the final decisions: %s; their list ends the reply", quoteStart(tail))
	}
	moves := []Move{}
	for i, raw := range list {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		var a decision
		if err := d.Decode(&a); err != nil {
			return nil, errorf("%s action %d: %v; each action is an object with action, pick_object and place_object", markFinal, i+1, err)
		}
		switch {
		case a.Action == nil:
			return nil, errorf("%s action %d has no \"action\"", markFinal, i+1)
		case *a.Action != PickAndPlace:
			return nil, errorf("%s action %d is %q; the only action is %q", markFinal, i+1, *a.Action, PickAndPlace)
		case a.PickObject == nil || strings.TrimSpace(*a.PickObject) == "":
			return nil, errorf("%s action %d has no \"pick_object\"", markFinal, i+1)
		case a.PlaceObject == nil || strings.TrimSpace(*a.PlaceObject) == "":
			return nil, errorf("%s action %d has no \"place_object\"", markFinal, i+1)
		}
		moves = append(moves, Move{Pick: strings.TrimSpace(*a.PickObject), Place: strings.TrimSpace(*a.PlaceObject)})
	}
	return moves, nil
}

// arg is one argument of a request: Key is empty for a positional one.
type arg struct {
	Key, Val string
	scene    bool // the bare word scene
}

func parseRequest(s string) (*Request, error) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	name := s[:i]
	if name == "" {
		return nil, errorf("%q is followed by %s; it takes a request such as retrieve_node(name=\"red block\")", markRequest, quoteStart(s))
	}
	if !slices.Contains(Requests, name) {
		return nil, errorf("unknown request %q; the requests are %s", name, strings.Join(Requests, ", "))
	}
	p := &argParser{s: s, i: i}
	args, err := p.args()
	if err != nil {
		return nil, errorf("%s: %v", name, err)
	}
	if tail := strings.TrimSpace(s[p.i:]); tail != "" {
		return nil, errorf("text after the request: %s; a reply ends with its request", quoteStart(tail))
	}
	req, err := build(name, args)
	if err != nil {
		return nil, errorf("%s: %v", name, err)
	}
	return req, nil
}

type argParser struct {
	s string
	i int
}

func (p *argParser) space() {
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !unicode.IsSpace(r) {
			return
		}
		p.i += n
	}
}

// args reads "(" [arg {"," arg}] ")".
func (p *argParser) args() ([]arg, error) {
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		return nil, fmt.Errorf("want \"(\" after the name")
	}
	p.i++
	var out []arg
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ')' {
		p.i++
		return out, nil
	}
	for {
		p.space()
		a, err := p.arg()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
		p.space()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("no \")\" closes the arguments")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ')':
			p.i++
			return out, nil
		default:
			return nil, fmt.Errorf("want \",\" or \")\" after argument %d, found %s", len(out), quoteStart(p.s[p.i:]))
		}
	}
}

// arg reads a quoted string, the bare word scene, or key=quoted string.
func (p *argParser) arg() (arg, error) {
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] == '_' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		p.i++
	}
	word := p.s[start:p.i]
	if word == "" {
		v, err := p.str()
		return arg{Val: v}, err
	}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '=' {
		if word == "scene" {
			return arg{scene: true}, nil
		}
		return arg{}, fmt.Errorf("bare word %q: an argument is a quoted string or key=\"value\"", word)
	}
	p.i++
	p.space()
	v, err := p.str()
	if err != nil {
		return arg{}, fmt.Errorf("%s: %v", word, err)
	}
	return arg{Key: word, Val: v}, nil
}

// closers maps each opening quote to the quotes that close it: ASCII
// quotes close themselves, and either typographic quote of a kind closes
// a string opened by either (the paper prints ”…” as well as “…”).
var closers = map[rune]string{
	'\'': "'", '"': `"`,
	'‘': "’‘", '’': "’‘",
	'“': "”“", '”': "”“",
}

// str reads a quoted string. Inside ASCII quotes a backslash escapes the
// character after it.
func (p *argParser) str() (string, error) {
	if p.i >= len(p.s) {
		return "", fmt.Errorf("want a quoted string, found the end of the reply")
	}
	open, n := utf8.DecodeRuneInString(p.s[p.i:])
	close, ok := closers[open]
	if !ok {
		return "", fmt.Errorf("want a quoted string, found %s", quoteStart(p.s[p.i:]))
	}
	p.i += n
	var b strings.Builder
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		p.i += n
		switch {
		case strings.ContainsRune(close, r):
			return b.String(), nil
		case r == '\\' && open < 0x80 && p.i < len(p.s):
			r, n = utf8.DecodeRuneInString(p.s[p.i:])
			p.i += n
			b.WriteRune(r)
		default:
			b.WriteString(p.s[p.i-n : p.i])
		}
	}
	return "", fmt.Errorf("the string opened by %q is not closed", open)
}

// build checks a request's arguments and fills the Request.
func build(name string, args []arg) (*Request, error) {
	r := &Request{Name: name}
	if len(args) > 0 && args[0].scene && (name == RetrieveNode || name == RetrieveEdge) {
		args = args[1:]
	}
	seen := map[string]bool{}
	for _, a := range args {
		if a.scene {
			return nil, fmt.Errorf("scene is only the first argument of a retrieval")
		}
		if a.Key != "" {
			if seen[a.Key] {
				return nil, fmt.Errorf("%s given twice", a.Key)
			}
			seen[a.Key] = true
		}
	}
	switch name {
	case RetrieveNode:
		var key, val *string
		for _, a := range args {
			switch a.Key {
			case "":
				return nil, fmt.Errorf("a positional argument %q; filter with name=, attr_key= and attr_val=, or an attribute such as color=", a.Val)
			case "name":
				r.Node = a.Val
			case "attr_key":
				key = &a.Val
			case "attr_val":
				val = &a.Val
			default:
				r.Attrs = append(r.Attrs, Attr{Key: a.Key, Val: a.Val})
			}
		}
		if (key == nil) != (val == nil) {
			return nil, fmt.Errorf("attr_key and attr_val go together")
		}
		if key != nil {
			r.Attrs = append([]Attr{{Key: *key, Val: *val}}, r.Attrs...)
		}
	case RetrieveEdge:
		if seen["relation"] && seen["type"] {
			return nil, fmt.Errorf("relation and type name the same filter; give one")
		}
		for _, a := range args {
			switch a.Key {
			case "source":
				r.Source = a.Val
			case "target":
				r.Target = a.Val
			case "relation", "type":
				r.Relation = a.Val
			case "":
				return nil, fmt.Errorf("a positional argument %q; filter with source=, target= and relation=", a.Val)
			default:
				return nil, fmt.Errorf("unknown filter %s; retrieve_edge filters by source, target and relation", a.Key)
			}
		}
	case AskMultiplicity, AskAbsence, AskUnderspecified, AskRobot:
		key := "question"
		if name == AskRobot {
			key = "message"
		}
		if len(args) != 1 || args[0].Key != "" && args[0].Key != key {
			return nil, fmt.Errorf("takes one argument, the %s as a quoted string", key)
		}
		r.Text = strings.TrimSpace(args[0].Val)
		if r.Text == "" {
			return nil, fmt.Errorf("the %s is empty", key)
		}
	case PickAndPlace:
		for _, a := range args {
			switch a.Key {
			case "object":
				r.Object = strings.TrimSpace(a.Val)
			case "destination":
				r.Destination = strings.TrimSpace(a.Val)
			default:
				return nil, fmt.Errorf("takes object= and destination=, not %s", describe(a))
			}
		}
		if r.Object == "" || r.Destination == "" {
			return nil, fmt.Errorf("takes object= and destination=, both not empty")
		}
	}
	return r, nil
}

func describe(a arg) string {
	if a.Key == "" {
		return fmt.Sprintf("a positional argument %q", a.Val)
	}
	return a.Key + "="
}
