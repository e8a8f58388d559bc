package grounding

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// Exchange is one question asked and its reply: to the user (Kind "ask",
// with a Tag) or to the partner robot (Kind "ask_robot").
type Exchange struct {
	Kind  string
	Tag   string
	Text  string
	Reply string
}

// Situation is everything a planner knows when it decides: the
// instruction, its partner, its view of the table, and the questions it has
// asked so far with their replies.
type Situation struct {
	Instruction string
	Partner     string
	View        View
	History     []Exchange
	// Looking, when set, is the table as the planner sees it in the image
	// its prompt shows, named as its View names the objects. A person's
	// answer that places the object it means ("the red block left of the
	// green bowl") is resolved by looking there, not through the scene
	// graph: the graph and its ablations are about the instruction.
	Looking View
}

// Binding is a move resolved to a block id and a destination (an object id
// or a place name).
type Binding struct{ Pick, Place string }

// Action kinds a Decision may hold.
const (
	ActAsk      = "ask"       // ask the user: Tag, Text
	ActAskRobot = "ask_robot" // message the partner: Text
	ActRetrieve = "retrieve"  // look first: Need says what
	ActMove     = "act"       // carry out Moves in order
	ActStuck    = "stuck"     // cannot go on: Text says why
)

// Decision is the next thing to do. Moves are the moves to carry out: of
// an ActMove, the plan; of an ActAskRobot, the moves to make before the
// message is sent (the block put in the shared workspace for the partner
// to take to a destination only it can see).
type Decision struct {
	Kind  string
	Tag   string
	Text  string
	Moves []Binding
	Need  *Unknown
}

// failed turns a View's error into the decision it calls for: retrieve
// what is unknown, or stop.
func failed(err error) Decision {
	var u *Unknown
	if errors.As(err, &u) {
		return Decision{Kind: ActRetrieve, Need: u}
	}
	return Decision{Kind: ActStuck, Text: err.Error()}
}

// Decide is the reference planner shared by the rules agent and the
// simulated model. It grounds every phrase of the instruction before
// acting, in a fixed order, and replays the history to know which
// questions have already been answered:
//
//   - a vague phrase or a missing destination: ask, tagged underspecified;
//   - nothing matches a block: ask the partner robot to bring it, if there
//     is one; still nothing (or no partner): ask, tagged absence;
//   - several things match: ask, tagged multiplicity;
//   - a block in the partner's workspace: ask the partner to hand it over;
//   - nothing matches the destination and there is a partner: put the
//     block in the shared workspace and ask the partner to take it there
//     (a move the partner reports done is left out of the plan); the
//     partner cannot either: ask, tagged absence.
//
// Then it acts. The i-th question it would ask is answered by the i-th
// exchange of the history; when the history runs out, that question is
// the decision.
func Decide(s Situation) Decision {
	d := decider{s: s}
	return d.decide()
}

type decider struct {
	s    Situation
	next int // next exchange of the history to consume
	// pick is the block of the move whose destination is being
	// grounded; handedOff is set when the partner reports it placed it.
	pick      string
	handedOff bool
}

// answer consumes the reply to the next question from the history; ok is
// false when the history has run out and the question must be asked.
func (d *decider) answer() (reply string, ok bool) {
	if d.next < len(d.s.History) {
		r := d.s.History[d.next].Reply
		d.next++
		return r, true
	}
	return "", false
}

func (d *decider) decide() Decision {
	moves, err := ParseInstruction(d.s.Instruction)
	if err != nil {
		return Decision{Kind: ActStuck, Text: err.Error()}
	}
	var plan []Binding
	for _, mv := range moves {
		answeredPlace := mv.Place == nil
		pick, q := d.ground(mv.Pick, true, "What should I pick up?")
		if q != nil {
			return *q
		}
		if mv.Place == nil {
			ask := Decision{Kind: ActAsk, Tag: "underspecified", Text: fmt.Sprintf("Where should I put %s?", pick)}
			reply, ok := d.answer()
			if !ok {
				return ask
			}
			ref, err := ParseAnswer(reply)
			if err != nil {
				return Decision{Kind: ActStuck, Text: err.Error()}
			}
			mv.Place = &ref
		}
		d.pick = pick
		place, q := d.groundAnswered(*mv.Place, false, "Where should I put it?", answeredPlace)
		if q != nil {
			return *q
		}
		if d.handedOff {
			d.handedOff = false
			continue // the partner placed it
		}
		plan = append(plan, Binding{pick, place})
	}
	if d.s.Partner != "" {
		theirs, err := d.s.View.Nodes(scenes.NodeQuery{Attrs: map[string]string{scenes.AttrWorkspace: d.s.Partner}})
		if err != nil {
			return failed(err)
		}
		for _, b := range plan {
			if !slices.Contains(theirs, b.Pick) || d.fetched(b.Pick) {
				continue
			}
			req := Decision{Kind: ActAskRobot, Text: HandRequest(d.named(b.Pick))}
			if _, ok := d.answer(); !ok {
				return req
			}
		}
	}
	return Decision{Kind: ActMove, Moves: plan}
}

// fetched reports whether an earlier reply says the partner already put
// the block in the shared workspace.
func (d *decider) fetched(id string) bool {
	for _, e := range d.s.History[:d.next] {
		got, ok := ParseHandReply(e.Reply)
		if ok && got == id {
			return true
		}
		// Robots that each name what they see in their own image share
		// no ids: the partner's block of that colour and class is this
		// one, as the request described it.
		if ok && d.s.Looking != nil && sameKind(got, id) {
			return true
		}
	}
	return false
}

// sameKind reports whether two ids name objects of one colour and class.
func sameKind(a, b string) bool {
	ra, err1 := ParseRef(a)
	rb, err2 := ParseRef(b)
	return err1 == nil && err2 == nil && ra.Color == rb.Color && ra.Class == rb.Class
}

// named is how the planner names a block in a message to the other
// robot: by its id when the robots share the table's ids (the detector's
// list), and when each names what it sees in its own image, by a phrase
// the other can find by looking (Describe).
func (d *decider) named(id string) string {
	if d.s.Looking == nil {
		return id
	}
	return Describe(d.s.Looking, id)
}

// delivered finds, among the exchanges not yet consumed, the partner's
// report that it took a block the reference names to a destination.
func (d *decider) delivered(ref Ref) (string, bool) {
	for _, e := range d.s.History[d.next:] {
		id, _, ok := ParseDeliverReply(e.Reply)
		if !ok {
			continue
		}
		got, err := ParseRef(id)
		if err != nil {
			continue
		}
		if ref.ID == id || (ref.ID == "" && ref.Anchor == nil && ref.Color == got.Color && ref.Class == got.Class) {
			return id, true
		}
	}
	return "", false
}

// ground resolves a phrase to one id or place, or returns the question to
// ask first.
func (d *decider) ground(ref Ref, isPick bool, vagueQuestion string) (string, *Decision) {
	return d.groundAnswered(ref, isPick, vagueQuestion, false)
}

// groundAnswered is ground, told whether the phrase is a person's answer.
func (d *decider) groundAnswered(ref Ref, isPick bool, vagueQuestion string, answered bool) (string, *Decision) {
	askedRobot := false
	for range 4 { // each reply may itself need grounding
		var q Decision
		switch {
		case ref.Vague:
			q = Decision{Kind: ActAsk, Tag: "underspecified", Text: vagueQuestion}
		case ref.Place != "":
			return ref.Place, nil
		default:
			view := d.s.View
			if answered && ref.Anchor != nil && d.s.Looking != nil {
				view = d.s.Looking
			}
			ids, err := Resolve(view, ref)
			if err != nil {
				f := failed(err)
				return "", &f
			}
			if len(ids) == 0 && isPick {
				// Out of view because the partner has already taken it to
				// its destination: the question that did it comes later.
				if id, ok := d.delivered(ref); ok {
					return id, nil
				}
			}
			if len(ids) == 0 && isPick && d.s.Partner != "" && !askedRobot {
				askedRobot = true
				req := Decision{Kind: ActAskRobot, Text: fmt.Sprintf("I cannot see %s. If you can, please put %s in the shared workspace.", ref.Phrase, ref.Phrase)}
				reply, ok := d.answer()
				if !ok {
					return "", &req
				}
				if id, ok := ParseHandReply(reply); ok {
					return id, nil
				}
				continue
			}
			if len(ids) == 0 && !isPick && d.s.Partner != "" && !askedRobot {
				askedRobot = true
				// The block goes to the shared workspace first, unless it
				// lies in the partner's, within its reach already.
				theirs, err := d.s.View.Nodes(scenes.NodeQuery{Attrs: map[string]string{scenes.AttrWorkspace: d.s.Partner}})
				if err != nil {
					f := failed(err)
					return "", &f
				}
				req := Decision{Kind: ActAskRobot, Text: DeliverRequest(d.named(d.pick), ref, true),
					Moves: []Binding{{Pick: d.pick, Place: scenes.SharedPlace}}}
				if slices.Contains(theirs, d.pick) {
					req.Text, req.Moves = DeliverRequest(d.named(d.pick), ref, false), nil
				}
				reply, ok := d.answer()
				if !ok {
					return "", &req
				}
				if got, dst, ok := ParseDeliverReply(reply); ok && (got == d.pick || d.s.Looking != nil && sameKind(got, d.pick)) {
					d.handedOff = true
					return dst, nil
				}
				continue
			}
			switch len(ids) {
			case 1:
				return ids[0], nil
			case 0:
				q = Decision{Kind: ActAsk, Tag: "absence", Text: fmt.Sprintf("I cannot find %s. What should I use instead?", ref.Phrase)}
			default:
				q = Decision{Kind: ActAsk, Tag: "multiplicity", Text: fmt.Sprintf("Which do you mean: %s?", strings.Join(ids, " or "))}
			}
		}
		reply, ok := d.answer()
		if !ok {
			return "", &q
		}
		next, err := ParseAnswer(reply)
		if err != nil {
			return "", &Decision{Kind: ActStuck, Text: err.Error()}
		}
		ref, answered = next, true
	}
	return "", &Decision{Kind: ActStuck, Text: fmt.Sprintf("could not ground %q", ref.Phrase)}
}

// HandRequest is the message asking the partner to bring a block to the
// shared workspace.
func HandRequest(id string) string {
	return fmt.Sprintf("Please put %s in the shared workspace.", id)
}

// HandReply is the partner's reply once it has done so.
func HandReply(id string) string {
	return fmt.Sprintf("I put %s in the shared workspace.", id)
}

// DeliverRequest is the message of a robot that cannot see the
// destination: it has put the block in the shared workspace (shared), or
// the block is in the partner's workspace already, and it asks the
// partner to take it to the destination.
func DeliverRequest(id string, dst Ref, shared bool) string {
	if !shared {
		return fmt.Sprintf("I cannot see %s. Please put %s %s %s.", dst.Phrase, id, prepFor(dst), dst.Phrase)
	}
	return fmt.Sprintf("I cannot see %s, so I put %s in the shared workspace. Please put %s %s %s.", dst.Phrase, id, id, prepFor(dst), dst.Phrase)
}

// prepFor joins a destination: "in" a bowl, "on" a block, "at" a place.
func prepFor(dst Ref) string {
	switch {
	case dst.Place != "":
		return "at"
	case dst.Class == scenes.ClassBlock:
		return "on"
	}
	return "in"
}

var deliverRequest = regexp.MustCompile(`please put ((?:the )?[a-z]+ block(?: \d+| (?:to the left of|to the right of|left of|right of|above|below) (?:the )?(?:other )?[a-z]+ (?:block|bowl))?) (?:in|on|into|onto|at) (.+)$`)

// ParseDeliverRequest reads a DeliverRequest: the block (an id, or a
// phrase of Describe) and the destination to take it to. A request to
// bring a block to the shared workspace is not one.
func ParseDeliverRequest(s string) (string, Ref, error) {
	sentences := strings.FieldsFunc(normalize(s), func(r rune) bool { return r == '.' || r == '!' || r == '?' })
	for i := len(sentences) - 1; i >= 0; i-- {
		m := deliverRequest.FindStringSubmatch(normalize(sentences[i]))
		if m == nil {
			continue
		}
		dst, err := ParseRef(m[2])
		if err != nil {
			return "", Ref{}, fmt.Errorf("message %q: destination: %w", s, err)
		}
		if dst.Place == scenes.SharedPlace {
			break
		}
		return m[1], dst, nil
	}
	return "", Ref{}, fmt.Errorf("message %q asks to take no block to a destination", s)
}

// DeliverReply is the partner's reply once it has taken the block to the
// destination dst (an id or a place).
func DeliverReply(id, dst string) string {
	return fmt.Sprintf("I took %s to %s.", id, dst)
}

// The destination ends with the sentence: ids and places hold no full stop.
var deliverReply = regexp.MustCompile(`i took ([a-z]+ block \d+) to ([^.!?]+)`)

// ParseDeliverReply reads the block and the destination out of a
// DeliverReply.
func ParseDeliverReply(s string) (id, dst string, ok bool) {
	m := deliverReply.FindStringSubmatch(normalize(s))
	if m == nil {
		return "", "", false
	}
	return m[1], strings.TrimSpace(m[2]), true
}

var handReply = regexp.MustCompile(`i put ([a-z]+ (?:block|bowl) \d+) in the shared workspace`)

// ParseHandReply reads the id out of a HandReply.
func ParseHandReply(s string) (string, bool) {
	m := handReply.FindStringSubmatch(normalize(s))
	if m == nil {
		return "", false
	}
	return m[1], true
}
