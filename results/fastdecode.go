package results

import (
	"strconv"
	"unicode/utf8"
)

// fastDecode decodes a record line of the shape ambibench writes without
// encoding/json's reflection, which was most of what reading a run cost
// (merge, compare, report and a resumed run read every record). It
// reports false on anything it is not sure encoding/json would read the
// same way — an escape in a string, a key in another case, a key twice,
// null, an unknown field, a number out of its field's range, any
// malformed JSON — and the caller then decodes the line as before, so
// that what a line decodes to, and every error's text, stay those of
// encoding/json with unknown fields disallowed (FuzzFastDecode holds
// the two alike).
func fastDecode(text []byte, rec *Record) bool {
	d := fastDecoder{b: text}
	d.space()
	if !d.byte('{') {
		return false
	}
	var seen uint64
	d.space()
	if d.peek() == '}' {
		d.i++
	} else {
		for {
			key, ok := d.str()
			if !ok {
				return false
			}
			n, f := recordField(rec, key)
			if n < 0 || seen&(1<<n) != 0 {
				return false
			}
			seen |= 1 << n
			d.space()
			if !d.byte(':') {
				return false
			}
			d.space()
			if !d.value(f) {
				return false
			}
			d.space()
			if d.byte(',') {
				d.space()
				continue
			}
			if !d.byte('}') {
				return false
			}
			break
		}
	}
	d.space()
	return d.i == len(d.b)
}

// field points at a record's field of one of the types a record has.
type field struct {
	i    *int
	u    *uint64
	f    *float64
	s    *string
	b    *bool
	m    *map[string]int
	is   *[]int
	ss   *[]string
	msgs *[]Message
}

type fastDecoder struct {
	b []byte
	i int
}

func (d *fastDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *fastDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// byte consumes c when it is next.
func (d *fastDecoder) byte(c byte) bool {
	if d.peek() == c {
		d.i++
		return true
	}
	return false
}

// str reads a string without escapes, of valid UTF-8: the bytes between
// its quotes. encoding/json would unescape the one and replace the
// invalid bytes of the other, so either is left to it.
func (d *fastDecoder) str() ([]byte, bool) {
	if !d.byte('"') {
		return nil, false
	}
	start := d.i
	ascii := true
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			s := d.b[start:d.i]
			d.i++
			return s, ascii || utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		d.i++
	}
	return nil, false
}

// number reads a number of JSON's grammar and says whether it is an
// integer (no fraction, no exponent).
func (d *fastDecoder) number() (lit []byte, integer, ok bool) {
	start := d.i
	d.byte('-')
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, false, false
	}
	integer = true
	if d.byte('.') {
		integer = false
		if !d.digits() {
			return nil, false, false
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		integer = false
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !d.digits() {
			return nil, false, false
		}
	}
	return d.b[start:d.i], integer, true
}

func (d *fastDecoder) digits() bool {
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

func (d *fastDecoder) integer() (int, bool) {
	lit, integer, ok := d.number()
	if !ok || !integer {
		return 0, false
	}
	v, err := strconv.ParseInt(string(lit), 10, 0)
	return int(v), err == nil
}

func (d *fastDecoder) literal(word string) bool {
	if len(d.b)-d.i >= len(word) && string(d.b[d.i:d.i+len(word)]) == word {
		d.i += len(word)
		return true
	}
	return false
}

// value reads the value of field f.
func (d *fastDecoder) value(f field) bool {
	switch {
	case f.i != nil:
		v, ok := d.integer()
		*f.i = v
		return ok
	case f.u != nil:
		lit, integer, ok := d.number()
		if !ok || !integer {
			return false
		}
		v, err := strconv.ParseUint(string(lit), 10, 64)
		*f.u = v
		return err == nil
	case f.f != nil:
		lit, _, ok := d.number()
		if !ok {
			return false
		}
		v, err := strconv.ParseFloat(string(lit), 64)
		*f.f = v
		return err == nil
	case f.s != nil:
		s, ok := d.str()
		*f.s = string(s)
		return ok
	case f.b != nil:
		switch {
		case d.literal("true"):
			*f.b = true
		case d.literal("false"):
			*f.b = false
		default:
			return false
		}
		return true
	case f.m != nil:
		return d.counts(f.m)
	case f.is != nil:
		*f.is = make([]int, 0)
		return d.array(func() bool {
			v, ok := d.integer()
			*f.is = append(*f.is, v)
			return ok
		})
	case f.ss != nil:
		*f.ss = make([]string, 0)
		return d.array(func() bool {
			s, ok := d.str()
			*f.ss = append(*f.ss, string(s))
			return ok
		})
	case f.msgs != nil:
		*f.msgs = make([]Message, 0)
		return d.array(func() bool {
			var m Message
			ok := d.message(&m)
			*f.msgs = append(*f.msgs, m)
			return ok
		})
	}
	return false
}

// array reads a JSON array, each element with elem. An empty array is an
// empty slice, not nil, as encoding/json leaves it.
func (d *fastDecoder) array(elem func() bool) bool {
	if !d.byte('[') {
		return false
	}
	d.space()
	if d.byte(']') {
		return true
	}
	for {
		d.space()
		if !elem() {
			return false
		}
		d.space()
		if d.byte(']') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// object reads a JSON object, each member's value with member once its
// key is read.
func (d *fastDecoder) object(member func(key []byte) bool) bool {
	if !d.byte('{') {
		return false
	}
	d.space()
	if d.byte('}') {
		return true
	}
	for {
		d.space()
		key, ok := d.str()
		if !ok {
			return false
		}
		d.space()
		if !d.byte(':') {
			return false
		}
		d.space()
		if !member(key) {
			return false
		}
		d.space()
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// counts reads a map of counts. A key twice keeps the last value, as
// encoding/json's map does; {} is an empty map, not nil.
func (d *fastDecoder) counts(m *map[string]int) bool {
	*m = map[string]int{}
	return d.object(func(key []byte) bool {
		v, ok := d.integer()
		(*m)[string(key)] = v
		return ok
	})
}

func (d *fastDecoder) message(m *Message) bool {
	var seen uint8
	return d.object(func(key []byte) bool {
		var p *string
		var n uint8
		switch string(key) {
		case "from":
			p, n = &m.From, 1
		case "to":
			p, n = &m.To, 2
		case "text":
			p, n = &m.Text, 4
		case "reply":
			p, n = &m.Reply, 8
		default:
			return false
		}
		if seen&n != 0 {
			return false
		}
		seen |= n
		s, ok := d.str()
		*p = string(s)
		return ok
	})
}

// recordField is the field of r that key names exactly, and its number,
// or -1 for a key that names none exactly (one in another case, which
// encoding/json would also take, or an unknown field, which it refuses).
func recordField(r *Record, key []byte) (int, field) {
	switch string(key) {
	case "schema":
		return 0, field{i: &r.Schema}
	case "suite":
		return 1, field{i: &r.Suite}
	case "outcome":
		return 2, field{s: &r.Outcome}
	case "error_kind":
		return 3, field{s: &r.ErrorKind}
	case "track":
		return 4, field{s: &r.Track}
	case "family":
		return 5, field{s: &r.Family}
	case "perturbation":
		return 6, field{s: &r.Perturbation}
	case "label":
		return 7, field{s: &r.Label}
	case "out_of_view":
		return 8, field{s: &r.OutOfView}
	case "agent":
		return 9, field{s: &r.Agent}
	case "model":
		return 10, field{s: &r.Model}
	case "seed":
		return 11, field{u: &r.Seed}
	case "episode":
		return 12, field{i: &r.Episode}
	case "scene_size":
		return 13, field{i: &r.SceneSize}
	case "repeat":
		return 14, field{i: &r.Repeat}
	case "objects":
		return 15, field{i: &r.Objects}
	case "perception":
		return 16, field{s: &r.Perception}
	case "instruction":
		return 17, field{s: &r.Instruction}
	case "asked":
		return 18, field{b: &r.Asked}
	case "tag":
		return 19, field{s: &r.Tag}
	case "questions":
		return 20, field{i: &r.Questions}
	case "tag_correct":
		return 21, field{i: &r.TagCorrect}
	case "success":
		return 22, field{b: &r.Success}
	case "ada":
		return 23, field{b: &r.ADA}
	case "steps":
		return 24, field{i: &r.Steps}
	case "tool_calls":
		return 25, field{m: &r.ToolCalls}
	case "messages":
		return 26, field{msgs: &r.Messages}
	case "acted_by":
		return 27, field{ss: &r.ActedBy}
	case "error":
		return 28, field{s: &r.Error}
	case "attempts":
		return 29, field{i: &r.Attempts}
	case "wall_ms":
		return 30, field{f: &r.WallMS}
	case "calls":
		return 31, field{i: &r.Calls}
	case "input_tokens":
		return 32, field{i: &r.InputTokens}
	case "output_tokens":
		return 33, field{i: &r.OutputTokens}
	case "latency_p50_ms":
		return 34, field{f: &r.LatencyP50MS}
	case "latency_p95_ms":
		return 35, field{f: &r.LatencyP95MS}
	case "phantom_nodes":
		return 36, field{i: &r.PhantomNodes}
	case "missed_objects":
		return 37, field{i: &r.MissedObjects}
	case "wrong_relations":
		return 38, field{i: &r.WrongRelations}
	case "unmapped_relations":
		return 39, field{i: &r.UnmappedRelations}
	case "trials":
		return 40, field{i: &r.Trials}
	case "solved_trial":
		return 41, field{i: &r.SolvedTrial}
	case "optimal_steps":
		return 42, field{i: &r.OptimalSteps}
	case "reflections":
		return 43, field{i: &r.Reflections}
	case "redundant_reflections":
		return 44, field{i: &r.RedundantReflections}
	case "reflection_tokens":
		return 45, field{i: &r.ReflectionTokens}
	case "reflection_tools":
		return 46, field{m: &r.ReflectionTools}
	case "reflection_token_counts":
		return 47, field{is: &r.ReflectionTokenCounts}
	case "reflection_trials":
		return 48, field{is: &r.ReflectionTrials}
	case "dataset":
		return 49, field{s: &r.Dataset}
	case "map":
		return 50, field{s: &r.Map}
	case "map_origin":
		return 51, field{s: &r.MapOrigin}
	case "map_objects":
		return 52, field{i: &r.MapObjects}
	case "query":
		return 53, field{s: &r.Query}
	case "difficulty":
		return 54, field{s: &r.Difficulty}
	case "answer":
		return 55, field{ss: &r.Answer}
	case "truth":
		return 56, field{ss: &r.Truth}
	case "top1":
		return 57, field{b: &r.Top1}
	case "top2":
		return 58, field{b: &r.Top2}
	case "top3":
		return 59, field{b: &r.Top3}
	case "top_any":
		return 60, field{b: &r.TopAny}
	case "hallucinated":
		return 61, field{i: &r.Hallucinated}
	case "no_readable_answer":
		return 62, field{b: &r.NoReadableAnswer}
	}
	return -1, field{}
}
