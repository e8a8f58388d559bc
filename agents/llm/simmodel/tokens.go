package simmodel

import (
	"math"
	"strconv"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// CountTokens estimates a request's input tokens as a quarter of its
// characters, the usual rule of thumb for English text and JSON, and each
// image as llm.ImageTokens of its size (410 at 640×480). It is what
// the simulated model reports as input tokens; its errors grow with these
// and the context's tokens (readTokens).
func CountTokens(req llm.Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Text)
		for _, tc := range m.ToolCalls {
			n += len(tc.Name) + len(tc.Args)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	images := 0
	for _, m := range req.Messages {
		for _, im := range m.Images {
			images += llm.ImageTokens(im.Width, im.Height)
		}
	}
	return (n+3)/4 + images
}

// readTokens is the size, in tokens, of a call context written out as
// JSON, as the prompts once carried it in a fenced block: the profiles'
// rates were set with those tokens counted, so the rates grow with them
// still, and a rate means what it meant. They are not input tokens: a
// backend sends none of them, and Reply.InputTokens (and so tokens/op)
// counts only what the request sends.
//
// The size is counted, not written: json.Marshal of a household
// context, whose trajectory grows every step, cost a decision at step 45
// more than the planner's own work, for a number only (contextSize).
func readTokens(cc *llm.CallContext) int {
	if cc == nil {
		return 0
	}
	// The same context counts the same whether it came in process or over
	// serve-sim's wire, which sets the version. The image is read as an
	// image, whatever the context says of what it shows (Seen, InImage:
	// for the simulated model, which reads no pixels): its tokens, not the
	// JSON of its boxes, which no prompt ever carried.
	image := 0
	if cc.ImageSize != ([2]int{}) {
		image = llm.ImageTokens(cc.ImageSize[0], cc.ImageSize[1])
	}
	n, ok := contextSize(cc)
	if !ok {
		return 0 // json.Marshal fails on a NaN or an infinity, and the context counted nothing then
	}
	const fence = len("```ambibench\n") + len("\n```")
	return (n+fence+3)/4 + image
}

// jsonSize adds up the length of a JSON text as encoding/json writes it.
// ok turns false at a number json.Marshal refuses (NaN, ±Inf).
type jsonSize struct {
	n      int
	ok     bool
	fields []int // the fields written so far in each open object, innermost last
}

// contextSize is the length of json.Marshal of cc with Version set to
// llm.ContextVersion and Play, Seen, InImage and ImageSize left out (the
// context as readTokens measures it), but for one thing: a string counts
// as its bytes in quotes, whatever JSON would escape in it (a newline, a
// quote, <, > or &, a control or invalid byte), so that the count reads
// only the lengths of the context's strings and not their bytes, and
// costs the same for every step of a trial's trajectory however long
// its observations. An escape adds one to five bytes, so that a rate,
// r·(1 + Growth·tokens/1000) with Growth at most 0.25 in the built-in
// profiles, moves by under a part in three thousand for each escape left
// uncounted. TestReadTokensCountsTheJSON holds
// the count to json.Marshal's length of the context with every string
// written plainly. The fields go in CallContext's order, each under its
// JSON name, the omitempty ones only when set.
func contextSize(cc *llm.CallContext) (int, bool) {
	var depth [8]int // the deepest object, a semantic map's class score, is the fourth
	s := jsonSize{ok: true, fields: depth[:0]}
	s.open()
	s.field("v")
	s.int(llm.ContextVersion)
	s.field("role")
	s.str(cc.Role)
	s.field("track")
	s.str(cc.Track)
	s.strField("instruction", cc.Instruction)
	s.strField("robot", cc.Robot)
	s.strField("partner", cc.Partner)
	if cc.Graph != nil {
		s.field("graph")
		s.graph(cc.Graph)
	}
	s.strsField("objects", cc.Objects)
	if len(cc.Detections) > 0 {
		s.field("detections")
		s.list(len(cc.Detections), func(i int) { s.detection(&cc.Detections[i]) })
	}
	s.strsField("images", cc.Images)
	s.strField("message", cc.Message)
	if len(cc.Exchanges) > 0 {
		s.field("exchanges")
		s.list(len(cc.Exchanges), func(i int) {
			e := &cc.Exchanges[i]
			s.open()
			s.field("kind")
			s.str(e.Kind)
			s.strField("tag", e.Tag)
			s.field("text")
			s.str(e.Text)
			s.field("reply")
			s.str(e.Reply)
			s.close()
		})
	}
	if len(cc.Done) > 0 {
		s.field("done")
		s.list(len(cc.Done), func(i int) {
			s.open()
			s.field("pick")
			s.str(cc.Done[i].Pick)
			s.field("place")
			s.str(cc.Done[i].Place)
			s.close()
		})
	}
	s.strField("opening", cc.Opening)
	s.stepsField("trajectory", cc.Trajectory)
	s.strsField("reflections", cc.Reflections)
	if cc.Trial != 0 {
		s.field("trial")
		s.int(cc.Trial)
	}
	s.strField("tool", cc.Tool)
	s.stepsField("case", cc.Case)
	if cc.SemanticMap != nil {
		s.field("semantic_map")
		s.semanticMap(cc.SemanticMap)
	}
	s.strField("mode", cc.Mode)
	s.strsField("answers", cc.Answers)
	s.strsField("feedback", cc.Feedback)
	s.field("format")
	s.str(cc.Format)
	s.strsField("requests", cc.Requests)
	s.close()
	return s.n, s.ok
}

func (s *jsonSize) open() {
	s.n++ // {
	s.fields = append(s.fields, 0)
}

func (s *jsonSize) close() {
	s.n++ // }
	s.fields = s.fields[:len(s.fields)-1]
}

// field counts a field's name, its colon and the comma before it if it is
// not its object's first.
func (s *jsonSize) field(name string) {
	top := &s.fields[len(s.fields)-1]
	if *top > 0 {
		s.n++
	}
	*top++
	s.n += len(name) + 3 // every name is plain: in quotes, and a colon
}

func (s *jsonSize) strField(name, v string) {
	if v != "" {
		s.field(name)
		s.str(v)
	}
}

func (s *jsonSize) strsField(name string, vs []string) {
	if len(vs) > 0 {
		s.field(name)
		s.strs(vs)
	}
}

func (s *jsonSize) stepsField(name string, steps []llm.HouseStep) {
	if len(steps) == 0 {
		return
	}
	s.field(name)
	s.list(len(steps), func(i int) {
		st := &steps[i]
		s.open()
		s.field("tool")
		s.str(st.Tool)
		s.strField("command", st.Command)
		s.strField("question", st.Question)
		s.field("result")
		s.str(st.Result)
		s.close()
	})
}

// list counts an array of n elements, each counted by elem; a nil slice
// is for the caller to write as null.
func (s *jsonSize) list(n int, elem func(i int)) {
	s.n += 2 + max(n-1, 0) // [ ] and the commas
	for i := range n {
		elem(i)
	}
}

func (s *jsonSize) strs(vs []string) {
	if vs == nil {
		s.n += len("null")
		return
	}
	s.list(len(vs), func(i int) { s.str(vs[i]) })
}

// attrs counts a map of strings, which encoding/json writes with its keys
// sorted: the order changes no length.
func (s *jsonSize) attrs(m map[string]string) {
	if m == nil {
		s.n += len("null")
		return
	}
	s.n += 2 + max(len(m)-1, 0)
	for k, v := range m {
		s.str(k)
		s.n++ // :
		s.str(v)
	}
}

func (s *jsonSize) graph(g *scenes.Graph) {
	s.open()
	s.field("nodes")
	if g.Nodes == nil {
		s.n += len("null")
	} else {
		s.list(len(g.Nodes), func(i int) {
			s.open()
			s.field("id")
			s.str(g.Nodes[i].ID)
			s.field("attributes")
			s.attrs(g.Nodes[i].Attributes)
			s.close()
		})
	}
	s.field("edges")
	if g.EdgesNil() {
		s.n += len("null")
	} else {
		s.list(g.NumEdges(), func(i int) {
			e := g.Edge(i)
			s.open()
			s.field("source")
			s.str(e.Source)
			s.field("target")
			s.str(e.Target)
			s.field("relation")
			s.str(e.Relation)
			s.close()
		})
	}
	s.close()
}

func (s *jsonSize) detection(d *llm.Detection) {
	s.open()
	s.field("id")
	s.str(d.ID)
	s.field("attributes")
	s.attrs(d.Attributes)
	s.field("pos")
	s.floats(d.Pos[:])
	s.field("size")
	s.floats(d.Size[:])
	if d.Box != ([4]int{}) {
		s.field("box_2d")
		s.list(len(d.Box), func(i int) { s.int(d.Box[i]) })
	}
	s.close()
}

// semanticMap counts a map, whose types carry no JSON tags: each field
// under its Go name.
func (s *jsonSize) semanticMap(m *scenes.SemanticMap) {
	s.open()
	s.field("Name")
	s.str(m.Name)
	s.field("Instances")
	if m.Instances == nil {
		s.n += len("null")
	} else {
		s.list(len(m.Instances), func(i int) {
			in := &m.Instances[i]
			s.open()
			s.field("ID")
			s.str(in.ID)
			s.field("Center")
			s.floats(in.Center[:])
			s.field("Size")
			s.floats(in.Size[:])
			s.field("Observations")
			s.int(in.Observations)
			s.field("Classes")
			if in.Classes == nil {
				s.n += len("null")
			} else {
				s.list(len(in.Classes), func(j int) {
					s.open()
					s.field("Class")
					s.str(in.Classes[j].Class)
					s.field("P")
					s.float(in.Classes[j].P)
					s.close()
				})
			}
			s.field("Evidence")
			s.float(in.Evidence)
			s.close()
		})
	}
	s.close()
}

func (s *jsonSize) int(v int) {
	var buf [24]byte
	s.n += len(strconv.AppendInt(buf[:0], int64(v), 10))
}

func (s *jsonSize) floats(vs []float64) {
	s.list(len(vs), func(i int) { s.float(vs[i]) })
}

// float counts a float64 as encoding/json formats it: 'f' but for very
// small or large magnitudes, which are 'e' with a one-digit negative
// exponent unpadded (1e-07 is written 1e-7).
func (s *jsonSize) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		s.ok = false
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, format, -1, 64)
	n := len(b)
	if format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		n--
	}
	s.n += n
}

// str counts a string as its bytes in quotes: as json.Marshal writes it
// but for escapes (see contextSize).
func (s *jsonSize) str(v string) { s.n += 2 + len(v) }

func outputTokens(r llm.Reply) int {
	n := len(r.Text)
	for _, tc := range r.ToolCalls {
		n += len(tc.Name) + len(tc.Args)
	}
	return (n + 3) / 4
}
