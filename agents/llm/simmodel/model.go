package simmodel

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// Model is the simulated model. It keeps no state between calls, so it is
// safe for concurrent use.
type Model struct {
	profile Profile
	name    string
}

// New returns a simulated model with a profile; name is its spec, as
// records show it ("sim", "sim:weak", "sim:salt=2", …). Its draws are keyed
// by the name, and by the profile's salt when that is not 0.
func New(p Profile, name string) *Model { return &Model{profile: p, name: name} }

// drawKey is what the model's random draws are keyed by: its name, and
// its salt when it has one. Salt 0 keys them by the name alone, as before
// salts existed, so that such a model draws exactly as it always has.
// A repeat of an episode (llm.WithRepeat, ambibench run --repeats) above
// 0 is mixed in too, so that each repeat samples a stream of its own;
// repeat 0 draws as a run without repeats.
func (m *Model) drawKey(ctx context.Context) string {
	k := m.name
	if m.profile.Salt != 0 {
		k = fmt.Sprintf("%s\x00salt=%d", m.name, m.profile.Salt)
	}
	if r := llm.RepeatFrom(ctx); r > 0 {
		k = fmt.Sprintf("%s\x00repeat=%d", k, r)
	}
	return k
}

func (m *Model) Name() string { return m.name }

// call is the state of one Generate.
type call struct {
	model   string
	opening []byte // the situation's hash (situation)
	// openingHex is the opening in hex, as every draw begins (draw).
	openingHex []byte
	p          Profile
	rng        *rand.Rand
	tokens     int // the request's input tokens: what it sends
	// read is what the error rates grow with: the tokens sent and those
	// of the context (see readTokens).
	read int
	cc   llm.CallContext // the request's context
	req  llm.Request
	// derived is the graph the model works out from the context's object
	// list, once it has (see sceneView).
	derived *scenes.Graph
	// noise is the perceiver's error in this episode, which a perceive
	// call applies to the graph it writes (llm.WithPerceptionNoise).
	noise scenes.GraphNoise
	// seenNorm is the context's Seen boxes normalised, once (seenBoxes),
	// and seenCells the grid of where they lie.
	seenNorm  [][4]int
	seenCells *seenGrid
}

// happens draws whether an error of base rate r occurs in this call.
func (c *call) happens(r float64) bool {
	if r <= 0 {
		return false
	}
	return c.rng.Float64() < c.effective(r)
}

// effective scales a rate by the length of what the model reads.
func (c *call) effective(r float64) float64 {
	return min(r*(1+c.p.Growth*float64(c.read)/1000), 1)
}

// persists draws whether a misreading of base rate r happens at a
// decision point named by key. The draw depends on the situation the
// context describes and the key (and the sample at temperature > 0), not on the
// call, so a model that misreads a question at one turn misreads it at
// every later turn of the episode; as the prompt grows the rate can only
// rise, so the misreading stays.
func (c *call) persists(r float64, key string) bool {
	if r <= 0 {
		return false
	}
	h := c.draw(key)
	u := float64(binary.LittleEndian.Uint64(h[:8])>>11) / (1 << 53)
	return u < c.effective(r)
}

// draw is the hash that fixes a draw of the model by the situation, the
// parts of the draw's key and, at temperature > 0, the sample: of the
// situation's hash in hex, then each part and the sample, each after a
// zero byte. Every misreading and slip of an episode draws through it,
// several times a call, so it writes the bytes into a buffer of its own
// rather than through fmt.
func (c *call) draw(parts ...string) [sha256.Size]byte {
	sample := 0
	if c.req.Temperature != 0 {
		sample = c.req.Sample
	}
	if c.opening == nil {
		c.opening = c.situation()
	}
	if c.openingHex == nil {
		// Once a call: a detection reply draws once an object.
		c.openingHex = hex.AppendEncode(nil, c.opening)
	}
	var buf [256]byte
	b := append(buf[:0], c.openingHex...)
	for _, p := range parts {
		b = append(append(b, 0), p...)
	}
	b = strconv.AppendInt(append(b, 0), int64(sample), 10)
	return sha256.Sum256(b)
}

// situation names the episode as the context describes it — the
// instruction, the robot, the objects in view — and not by the prompt's
// wording, so that every workflow, and every fresh prompt a workflow
// writes within an episode, meets the same misreadings of it.
func (c *call) situation() []byte {
	b := c.cc
	var ids []string
	if b.Graph != nil {
		for _, n := range b.Graph.Nodes {
			ids = append(ids, n.ID)
		}
	} else if len(b.Detections) > 0 {
		for _, o := range b.Detections {
			ids = append(ids, o.ID)
		}
	} else if len(b.Objects) > 0 {
		ids = slices.Clone(b.Objects)
	} else {
		// A call that shows only an image (a detection): the objects in
		// it. A context without Seen hashes as it always has.
		ids = seenIDs(b.Seen)
	}
	if b.SemanticMap != nil {
		for _, in := range b.SemanticMap.Instances {
			ids = append(ids, in.ID)
		}
		// The same query over the same map in the other input is another
		// situation: the model reads different text.
		ids = append(ids, "\x00map="+b.SemanticMap.Name+"\x00mode="+b.Mode)
	}
	// The ids in order, sorted by their indexes: a sort of the strings
	// themselves moved each header through the collector's write barrier
	// while it marks, and a crowded table's 48 ids are sorted at every
	// call. Equal ids are equal bytes, so any order of them hashes alike.
	var stack [64]int32
	order := stack[:0]
	if len(ids) > len(stack) {
		order = make([]int32, 0, len(ids))
	}
	for i := range ids {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
	// Each string and a zero byte, hashed in one piece: the room of a
	// household game is a kilobyte, written through fmt or io.WriteString
	// a copy of it at every call.
	var buf [2048]byte
	o := buf[:0]
	for _, s := range [...]string{c.model, b.Track, b.Instruction, b.Robot, b.Partner, b.Message} {
		o = append(append(o, s...), 0)
	}
	for i, k := range order {
		if i > 0 {
			o = append(o, 0)
		}
		o = append(o, ids[k]...)
	}
	o = append(o, 0)
	if b.Opening != "" {
		// A household game: its room tells it from others with the same
		// task sentence. Tabletop contexts have none, so their draws stay.
		o = append(append(o, b.Opening...), 0)
	}
	h := sha256.Sum256(o)
	return h[:]
}

// genKey is what of a request's generation parameters reaches a call's
// random stream: the temperature, the seed and, at temperature > 0, the
// sample. A response schema does not: it is offered by the workflow and
// sent only when the model spec asks for structured output (schema=1);
// sim answers the same either way, and serve-sim, which receives no
// schema from a default client, draws as sim does.
type genKey struct {
	temp   float64
	seed   int64
	sample int
}

// tailWindow is how much of the last message's text a call's stream is
// keyed by: all of a text up to twice this long, else its first and last
// tailWindow bytes.
const tailWindow = 256

// stream is the call's random stream (happens, Call.Rand). It is seeded
// by a SHA-256 of what tells the calls of an episode apart, a fixed
// amount of reading whatever the prompt's length, and not of the whole
// request: llm.Hash, which cassettes are keyed by, read every byte of
// the prompt at every call, a sixth of a household decision, for draws
// the model then makes from the context. The key is
//
//   - the situation (the model's draw key, track, instruction, robot,
//     partner, message, the objects or map in view, the opening);
//   - the context's labels (role, format, tool, mode, trial) and the
//     lengths of its growing lists (trajectory, exchanges, moves done,
//     reflections, case, answers, feedback, requests);
//   - the request's shape: the number of messages and of tool calls, the
//     characters of the system text and of every message's text, the
//     tools' names; and its last message whole but for a long text, of
//     which the first and last tailWindow bytes (role, text, tool-call
//     names, tool-call id, name, images' digests);
//   - the temperature, the seed and the sample (genKey).
//
// Every one of these arrives alike over serve-sim's wire, so a request
// draws there as it does in process. Two requests that differ only inside
// a long text, in the same place of the same episode, at the same length
// and with the same sample, share a stream: their draws are alike, and
// still the same every run.
func (c *call) stream(g genKey) *rand.Rand {
	var buf [1024]byte
	b := append(buf[:0], "sim-call-v1"...)
	b = append(b, c.opening...)
	cc := &c.cc
	for _, s := range [...]string{cc.Role, cc.Format, cc.Tool, cc.Mode} {
		b = appendStr(b, s)
	}
	for _, n := range [...]int{cc.Trial, len(cc.Trajectory), len(cc.Exchanges), len(cc.Done), len(cc.Reflections),
		len(cc.Case), len(cc.Answers), len(cc.Feedback), len(cc.Requests)} {
		b = binary.AppendVarint(b, int64(n))
	}
	req := &c.req
	chars, calls := len(req.System), 0
	for i := range req.Messages {
		chars += len(req.Messages[i].Text)
		calls += len(req.Messages[i].ToolCalls)
	}
	for _, n := range [...]int{len(req.Messages), calls, chars, len(req.Tools)} {
		b = binary.AppendVarint(b, int64(n))
	}
	for _, t := range req.Tools {
		b = appendStr(b, t.Name)
	}
	if n := len(req.Messages); n > 0 {
		m := &req.Messages[n-1]
		b = appendStr(b, string(m.Role))
		if t := m.Text; len(t) <= 2*tailWindow {
			b = appendStr(b, t)
		} else {
			b = appendStr(appendStr(b, t[:tailWindow]), t[len(t)-tailWindow:])
		}
		b = binary.AppendUvarint(b, uint64(len(m.ToolCalls)))
		for _, tc := range m.ToolCalls {
			b = appendStr(b, tc.Name)
		}
		b = appendStr(appendStr(b, m.ToolCallID), m.Name)
		b = binary.AppendUvarint(b, uint64(len(m.Images)))
		for _, im := range m.Images {
			b = appendStr(b, im.Digest)
		}
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(g.temp))
	b = binary.AppendVarint(b, g.seed)
	b = binary.AppendVarint(b, int64(g.sample))
	h := sha256.Sum256(b)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])))
}

// appendStr writes s's length, then s.
func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func (m *Model) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return llm.Reply{}, err
	}
	if req.Sample < 0 {
		// Samples number a request's draws from 0; the draws index
		// candidates by the sample, and a negative one names no draw.
		return llm.Reply{}, fmt.Errorf("sim: request sample %d is negative; samples number the draws of a request from 0", req.Sample)
	}
	// At temperature 0 every sample is the most likely reply, so the sample
	// index does not reach the random stream.
	g := genKey{temp: req.Temperature, seed: req.Seed, sample: req.Sample}
	if req.OmitTemperature {
		// The provider's default, which for this model is what serve-sim
		// reads from a request without a temperature: 1, with the sample
		// arriving as the seed (llm.GenParams.SeedFor), so that a request
		// drawn here draws as it does over the wire. The misreadings
		// (persists) stay those of the situation: at this temperature the
		// sample reaches only this call's own draws, a malformed reply
		// among them, which a request asked again draws afresh.
		g = genKey{temp: 1, seed: req.Seed + int64(req.Sample)}
	}
	if g.temp == 0 {
		g.sample = 0
	}
	c := &call{
		model:  m.drawKey(ctx),
		p:      m.profile,
		tokens: CountTokens(req),
		req:    req,
		noise:  llm.PerceptionNoiseFrom(ctx),
	}
	if req.Context != nil {
		c.cc = *req.Context
	}
	c.opening = c.situation()
	c.rng = c.stream(g)
	c.read = c.tokens + readTokens(req.Context)
	var reply llm.Reply
	if req.Context == nil {
		// A plain chat client (serve-sim without the extension field) gets
		// an answer that says why it gets nothing better.
		reply = llm.Reply{Text: NoContextReply, FinishReason: llm.FinishStop}
	} else {
		// What the model knows of a track, each track taught it (Teach).
		r, known := responder(c.cc.Track)
		switch {
		case !known:
			reply = llm.Reply{Text: UnknownTrackReply(c.cc.Track), FinishReason: llm.FinishStop}
		case c.happens(c.p.Malformed):
			reply = malformed()
		default:
			reply = r(&Call{c})
		}
	}
	reply.InputTokens = c.tokens
	reply.OutputTokens = outputTokens(reply)
	reply.Latency = time.Since(start)
	return reply, nil
}

// NoContextReply is the reply to a request without a call context: the
// simulated model reads the context, not the prose.
const NoContextReply = "I can only answer requests that carry an ambibench call context (the request's Context; over HTTP, serve-sim's ambibench_context field), and this one carries none."

// malformed is a reply that is not in the asked format: a half-written
// call in prose.
func malformed() llm.Reply {
	return llm.Reply{Text: "THOUGHT: I will act now.\nREQUEST: pick_and_place(pick=", FinishReason: llm.FinishStop}
}

// calls makes a reply of tool calls, numbered after those already in the
// conversation so that ids never repeat.
func (c *call) calls(tcs ...llm.ToolCall) llm.Reply {
	n := 0
	for _, m := range c.req.Messages {
		n += len(m.ToolCalls)
	}
	for i := range tcs {
		tcs[i].ID = fmt.Sprintf("call_%d", n+i)
	}
	return llm.Reply{ToolCalls: tcs, FinishReason: llm.FinishToolCalls}
}

func toolCall(name string, args map[string]string) llm.ToolCall {
	data, _ := json.Marshal(args) // a map of strings always encodes
	return llm.ToolCall{Name: name, Args: data}
}
