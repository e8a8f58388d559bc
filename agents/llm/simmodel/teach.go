package simmodel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents/llm"
)

// A Responder answers the calls of one track: it reads the call through
// c and replies in the format the call's context asks for. Teach gives a
// track its responder.
type Responder func(c *Call) llm.Reply

// Call is one call to the simulated model as a Responder sees it: what the
// workflow stated (Context, Request), the model's Profile, and the call's
// draws, each seeded as the model's own are so that the same request always
// gets the same reply. A Call is valid only while its Responder runs.
type Call struct{ c *call }

// Context is the call's context (the request's llm.CallContext): its
// Track names the responder's own track.
func (v *Call) Context() llm.CallContext { return v.c.cc }

// Request is the request as the workflow sent it.
func (v *Call) Request() llm.Request { return v.c.req }

// Profile is the model's profile: its error rates.
func (v *Call) Profile() Profile { return v.c.p }

// Rand is the call's random stream, seeded by the situation (with the
// model's name, salt and repeat), the call's place in the episode, the
// request's shape and the ends of its last message and, at temperature >
// 0, its sample (see the package comment): a draw from it is the call's
// own, made afresh from one call of an episode to the next.
func (v *Call) Rand() *rand.Rand { return v.c.rng }

// Happens draws from the call's random stream whether an error of base
// rate r occurs in this call; the rate grows with what the model reads
// (the profile's Growth), as every rate of the built-in tracks does.
func (v *Call) Happens(r float64) bool { return v.c.happens(r) }

// Persists draws whether a misreading of base rate r happens at the
// decision point key names. The draw is fixed by the situation the context
// describes (track, instruction, robot, objects and map in view, opening),
// the key and, at temperature > 0, the sample, not by the call: a model
// that misreads a question at one call of an episode misreads it at every
// later one. The rate grows as Happens's does.
func (v *Call) Persists(r float64, key string) bool { return v.c.persists(r, key) }

// ToolCalls is a reply of tool calls, their ids numbered after those
// already in the conversation so that ids never repeat.
func (v *Call) ToolCalls(tcs ...llm.ToolCall) llm.Reply { return v.c.calls(tcs...) }

// taught holds the responders by track.
var taught = struct {
	sync.RWMutex
	by map[string]Responder
}{by: map[string]Responder{}}

// Teach teaches the simulated model the calls of a track: every call whose
// context names track (llm.CallContext.Track) is answered by r, after the
// model's own draw of a malformed reply (the profile's Malformed). A track
// teaches from an init function of its own, as the built-in ones do from
// tabletop.go, household.go and semmap.go; the model has no other knowledge
// of any track. A call of a track nobody taught is answered
// UnknownTrackReply. Teaching a track twice, an empty track or a nil
// responder panics.
func Teach(track string, r Responder) {
	if track == "" || r == nil {
		panic("simmodel: Teach needs a track and a responder")
	}
	taught.Lock()
	defer taught.Unlock()
	if _, ok := taught.by[track]; ok {
		panic(fmt.Sprintf("simmodel: track %q taught twice", track))
	}
	taught.by[track] = r
}

// Taught lists the tracks the model has been taught, sorted.
func Taught() []string {
	taught.RLock()
	defer taught.RUnlock()
	out := make([]string, 0, len(taught.by))
	for t := range taught.by {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// responder is the responder taught for track.
func responder(track string) (Responder, bool) {
	taught.RLock()
	defer taught.RUnlock()
	r, ok := taught.by[track]
	return r, ok
}

// UnknownTrackReply is the reply to a call whose track nobody taught the
// model: it names the track and those the model knows.
func UnknownTrackReply(track string) string {
	return fmt.Sprintf("I was taught no calls of track %q, so I cannot answer this one (I know the tracks %s; a track teaches me with simmodel.Teach).",
		track, strings.Join(Taught(), ", "))
}
