package tabletop

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// A perceive reply at a crowded table holds thousands of relations, and
// encoding/json's maps cost more than the rest of the episode's own work.
// fastPerception reads the replies that are plainly well formed — the
// JSON a model writes when it follows the prompt, and what the simulated
// model writes — without reflection or maps; anything else (an escape, a
// duplicate key, a key in another case, an error of any kind) it leaves
// to parsePerception's encoding/json path, which says what is wrong. So
// the fast path never decides an error, and where it returns a graph it
// is the graph the other path returns (FuzzParsePerception checks both).

// scanner walks a JSON text that holds only what the fast path accepts.
type scanner struct {
	s   string
	i   int
	bad bool // the text holds something the fast path leaves alone
}

func (sc *scanner) space() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// next skips whitespace and reports the next byte, 0 at the end.
func (sc *scanner) next() byte {
	sc.space()
	if sc.i >= len(sc.s) {
		return 0
	}
	return sc.s[sc.i]
}

// expect consumes byte c after whitespace, or marks the text bad.
func (sc *scanner) expect(c byte) {
	if sc.next() != c {
		sc.bad = true
		return
	}
	sc.i++
}

// str reads a string of printable ASCII without escapes.
func (sc *scanner) str() string {
	if sc.next() != '"' {
		sc.bad = true
		return ""
	}
	start := sc.i + 1
	for j := start; j < len(sc.s); j++ {
		switch c := sc.s[j]; {
		case c == '"':
			sc.i = j + 1
			return sc.s[start:j]
		case c == '\\' || c < 0x20 || c >= 0x80:
			sc.bad = true
			return ""
		}
	}
	sc.bad = true
	return ""
}

// small reads a non-negative integer of at most nine digits, written as
// JSON writes it (no leading zero).
func (sc *scanner) small() int {
	sc.space()
	n, j := 0, sc.i
	for j < len(sc.s) && j-sc.i < 10 && sc.s[j] >= '0' && sc.s[j] <= '9' {
		n = n*10 + int(sc.s[j]-'0')
		j++
	}
	digits := j - sc.i
	if digits == 0 || digits > 9 || (digits > 1 && sc.s[sc.i] == '0') {
		sc.bad = true
		return 0
	}
	if j < len(sc.s) {
		switch sc.s[j] {
		case '.', 'e', 'E':
			sc.bad = true
			return 0
		}
	}
	sc.i = j
	return n
}

// members reads an object, calling member for each key with the scanner
// at its value; a repeated key is left to the other path (encoding/json
// merges or replaces, by where it stands).
func (sc *scanner) members(member func(key string)) {
	sc.expect('{')
	if sc.bad {
		return
	}
	if sc.next() == '}' {
		sc.i++
		return
	}
	var buf [8]string // most objects have few keys
	keys := buf[:0]
	for !sc.bad {
		k := sc.str()
		if sc.bad || slices.Contains(keys, k) {
			sc.bad = true
			return
		}
		keys = append(keys, k)
		sc.expect(':')
		if sc.bad {
			return
		}
		member(k)
		if sc.bad {
			return
		}
		switch sc.next() {
		case ',':
			sc.i++
		case '}':
			sc.i++
			return
		default:
			sc.bad = true
		}
	}
}

// index reads an object key as an object index, as parsePerception's
// index does: canonical decimal, in range.
func index(key string, n int) (int, bool) {
	if key == "" || len(key) > 9 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	i := 0
	for j := 0; j < len(key); j++ {
		if key[j] < '0' || key[j] > '9' {
			return 0, false
		}
		i = i*10 + int(key[j]-'0')
	}
	return i, i < n
}

// fastPerception is parsePerception for a plainly well-formed reply; ok
// is false when it leaves the reply to the encoding/json path.
func fastPerception(text string, ds []llm.Detection, edges bool) (g *scenes.Graph, ok bool) {
	start, end := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if start < 0 || end < start {
		return nil, false
	}
	n := len(ds)
	g = &scenes.Graph{Nodes: make([]scenes.Node, n)}
	replied := make([]bool, n)
	var pairs []relationSet // see relationSets
	count := 0
	room := relationSetsPool.Get().(*[]relationSet)
	defer relationSetsPool.Put(room)
	sc := &scanner{s: text[start : end+1]}
	sc.members(func(key string) {
		switch key {
		case "nodes":
			sc.members(func(k string) {
				i, ok := index(k, n)
				if !ok {
					sc.bad = true
					return
				}
				var nd scenes.Node
				hasID, hasAttrs := false, false
				sc.members(func(field string) {
					switch field {
					case "id":
						nd.ID, hasID = strings.TrimSpace(sc.str()), true
					case "attributes":
						nd.Attributes, hasAttrs = map[string]string{}, true
						sc.members(func(ak string) { nd.Attributes[ak] = sc.str() })
					default:
						sc.bad = true
					}
				})
				if !hasID || nd.ID == "" || !hasAttrs || len(nd.Attributes) == 0 {
					sc.bad = true
					return
				}
				g.Nodes[i], replied[i] = nd, true
			})
		case "edges":
			if edges {
				pairs, count = sc.relationSets(n, room)
			} else {
				sc.skipEdges()
			}
		default:
			sc.bad = true
		}
	})
	if sc.space(); sc.bad || sc.i != len(sc.s) {
		return nil, false
	}
	for i, d := range ds {
		if !replied[i] {
			// As listed, sharing the detection's attribute map, as
			// perceptionJSON does.
			g.Nodes[i] = scenes.Node{ID: d.ID, Attributes: d.Attributes}
		}
	}
	seen := make(map[string]struct{}, n)
	for _, nd := range g.Nodes {
		if _, dup := seen[nd.ID]; dup {
			return nil, false
		}
		seen[nd.ID] = struct{}{}
	}
	if !edges || count == 0 {
		return g, true
	}
	g.GrowEdges(count)
	g.AddNodeEdgeSets(pairs)
	return g, true
}

// relationSetsPool holds the room relationSets reads a reply's relations
// into, which is dropped once the graph has its edges: 4.6 KB a look at a
// crowded table, and what a process allocates sets how often its
// collector runs.
var relationSetsPool = sync.Pool{New: func() any { return new([]relationSet) }}

// relationSets reads a perceive reply's edges, the scanner at their
// object, as fastPerception reads them with edges: each source an object
// index, each of its relations one of scenes.Relations, each target an
// object index other than the source. It returns the relations read, as
// a set: a bit a relation (its index in scenes.Relations) of each pair,
// source·n + target, whose order is the graph's, and a relation read
// twice is one; count is the number of relations in it. A crowded table's
// reply holds thousands of targets, so they are read here in one loop,
// not through members and small: a key is a source or a relation, and a
// repeated one is marked by its index, not looked for among the keys read.
//
// The sets are made in *room when it has the room for them, and kept
// there when made anew.
func (sc *scanner) relationSets(n int, room *[]relationSet) (pairs []relationSet, count int) {
	sc.expect('{')
	if sc.bad || sc.next() == '}' {
		sc.i++
		return nil, 0
	}
	read := make([]bool, n) // the sources read
	for !sc.bad {
		src, ok := index(sc.str(), n)
		if sc.bad || !ok || read[src] {
			sc.bad = true
			return nil, 0
		}
		read[src] = true
		sc.expect(':')
		sc.expect('{')
		if sc.bad {
			return nil, 0
		}
		if sc.next() == '}' {
			sc.i++
		} else {
			var rels relationSet // the relations read of this source
			for !sc.bad {
				r := slices.Index(scenes.Relations, sc.str())
				if sc.bad || r < 0 || rels&(1<<r) != 0 {
					sc.bad = true
					return nil, 0
				}
				rels |= 1 << r
				sc.expect(':')
				sc.expect('[')
				if sc.bad {
					return nil, 0
				}
				if pairs == nil {
					if cap(*room) < n*n {
						*room = make([]relationSet, n*n)
					}
					pairs = (*room)[:n*n]
					clear(pairs)
				}
				added, ok := sc.targets(pairs[src*n:(src+1)*n], src, 1<<r)
				if !ok {
					sc.bad = true
					return nil, 0
				}
				count += added
				if !sc.closes('}') {
					break
				}
			}
		}
		if !sc.closes('}') {
			break
		}
	}
	if sc.bad {
		return nil, 0
	}
	return pairs, count
}

// targets reads a list of targets after its '[' and through its ']',
// setting bit in row[dst] for each; added is the number of bits it set.
// ok is false for anything but object indexes other than src, written as
// JSON writes them (no leading zero, nine digits at most).
func (sc *scanner) targets(row []relationSet, src int, bit relationSet) (added int, ok bool) {
	s, i := sc.s, sc.i
	i = skipSpace(s, i)
	if i < len(s) && s[i] == ']' {
		sc.i = i + 1 // an empty list
		return 0, true
	}
	for {
		// Most targets are one or two digits and the ',' after them, as
		// a model writes them: those are read at once.
		dst, d := 0, 0
		if i+2 < len(s) {
			c0, c1 := s[i]-'0', s[i+1]
			switch {
			case c0 > 9:
			case c1 == ',' || c1 == ']':
				dst, d = int(c0), 1
			case c0 > 0 && c1-'0' <= 9 && (s[i+2] == ',' || s[i+2] == ']'):
				dst, d = int(c0)*10+int(c1-'0'), 2
			}
		}
		if d == 0 {
			sc.i = i
			if dst = sc.small(); sc.bad {
				return 0, false
			}
			i = skipSpace(s, sc.i)
			if i == len(s) {
				return 0, false
			}
		} else {
			i += d
		}
		if dst >= len(row) || dst == src {
			return 0, false
		}
		if row[dst]&bit == 0 {
			row[dst] |= bit
			added++
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case ']':
			sc.i = i + 1
			return added, true
		default:
			return 0, false // a fraction or an exponent too
		}
	}
}

// skipSpace is the index of the first byte of s from i on that is not
// JSON whitespace, or len(s).
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// closes consumes the ',' between two members of an object and reports
// true, or its closing c and reports false; anything else marks the text
// bad (false).
func (sc *scanner) closes(c byte) bool {
	switch sc.next() {
	case ',':
		sc.i++
		return true
	case c:
		sc.i++
	default:
		sc.bad = true
	}
	return false
}

// skipEdges reads a perceive reply's edges as fastPerception reads them
// without edges: an object of objects of lists of small numbers, each
// object's keys distinct, the keys and numbers whatever they are.
func (sc *scanner) skipEdges() {
	sc.members(func(string) {
		sc.members(func(string) {
			sc.expect('[')
			if sc.bad || sc.next() == ']' {
				sc.i++
				return
			}
			for !sc.bad {
				sc.small()
				if sc.bad || !sc.closes(']') {
					return
				}
			}
		})
	})
}

// relationSet holds a bit for each relation of scenes.Relations, by
// index (TestRelationsFitARelationSet), as scenes.Graph.AddNodeEdgeSets
// reads them.
type relationSet = uint16

// number reads a JSON number as encoding/json reads it into a float64.
func (sc *scanner) number() float64 {
	sc.space()
	j := sc.i
	digits := func() int {
		k := j
		for j < len(sc.s) && sc.s[j] >= '0' && sc.s[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(sc.s) && sc.s[j] == '-' {
		j++
	}
	lead := j
	if n := digits(); n == 0 || (n > 1 && sc.s[lead] == '0') {
		sc.bad = true
		return 0
	}
	if j < len(sc.s) && sc.s[j] == '.' {
		j++
		if digits() == 0 {
			sc.bad = true
			return 0
		}
	}
	if j < len(sc.s) && (sc.s[j] == 'e' || sc.s[j] == 'E') {
		j++
		if j < len(sc.s) && (sc.s[j] == '+' || sc.s[j] == '-') {
			j++
		}
		if digits() == 0 {
			sc.bad = true
			return 0
		}
	}
	f, err := strconv.ParseFloat(sc.s[sc.i:j], 64)
	if err != nil {
		sc.bad = true
		return 0
	}
	sc.i = j
	return f
}

// triple reads an array of exactly three numbers.
func (sc *scanner) triple() (v [3]float64) {
	sc.expect('[')
	for k := range 3 {
		if k > 0 {
			sc.expect(',')
		}
		if sc.bad {
			return v
		}
		v[k] = sc.number()
	}
	sc.expect(']')
	return v
}

// fastDetections reads detect_objects' result as json.Unmarshal does,
// for a list in the shape the detector writes (llm.DetectionsJSON); ok is
// false when it leaves the text to json.Unmarshal.
func fastDetections(text string) (ds []llm.Detection, ok bool) {
	sc := &scanner{s: text}
	sc.expect('[')
	if sc.bad {
		return nil, false
	}
	ds = make([]llm.Detection, 0, strings.Count(text, `"id"`))
	if sc.next() == ']' {
		sc.i++
	} else {
		for !sc.bad {
			var d llm.Detection
			has := 0
			sc.members(func(field string) {
				switch field {
				case "id":
					d.ID = sc.str()
				case "attributes":
					d.Attributes = map[string]string{}
					sc.members(func(k string) { d.Attributes[k] = sc.str() })
				case "pos":
					d.Pos = sc.triple()
				case "size":
					d.Size = sc.triple()
				default:
					sc.bad = true
				}
				has++
			})
			if has != 4 {
				sc.bad = true // a field left out: json.Unmarshal's zero values
			}
			ds = append(ds, d)
			switch sc.next() {
			case ',':
				sc.i++
			case ']':
				sc.i++
				if sc.space(); sc.bad || sc.i != len(sc.s) {
					return nil, false
				}
				return ds, true
			default:
				sc.bad = true
			}
		}
		return nil, false
	}
	if sc.space(); sc.bad || sc.i != len(sc.s) {
		return nil, false
	}
	return ds, true
}

// fastImageObjects is strictImageObjects for a reply in the asked shape
// and plainly well formed (perceive_scan.go's scanner: no escapes, no
// repeated or unknown key, every field there, boxes of four small whole
// numbers), read without encoding/json's reflection: at a crowded table
// the detection reply lists dozens of objects. ok is false for anything
// else, which encoding/json then reads (FuzzParseImageObjects holds the
// two reads alike).
func fastImageObjects(body string) (out []llm.ImageObject, ok bool) {
	sc := &scanner{s: body}
	listed := false
	sc.members(func(key string) {
		if key != "objects" {
			sc.bad = true
			return
		}
		listed = true
		sc.expect('[')
		if sc.bad {
			return
		}
		// An object a '{' but the reply's own (a byte counted fast; a
		// brace in a name only adds room).
		out = make([]llm.ImageObject, 0, strings.Count(body, "{")-1)
		if sc.next() == ']' {
			sc.i++
			return
		}
		for !sc.bad {
			o := sc.imageObject()
			if sc.bad || checkImageObject(o) != nil {
				sc.bad = true
				return
			}
			out = append(out, o)
			switch sc.next() {
			case ',':
				sc.i++
			case ']':
				sc.i++
				return
			default:
				sc.bad = true
			}
		}
	})
	if sc.space(); sc.bad || !listed || sc.i != len(sc.s) {
		return nil, false
	}
	return out, true
}

// imageObject reads one object of a detection reply, as fastImageObjects
// reads them: its four fields, each once, and no other. It reads the
// fields in place rather than through members: a crowded table's reply
// lists dozens of objects.
func (sc *scanner) imageObject() (o llm.ImageObject) {
	sc.expect('{')
	var has uint8 // a bit a field read: name, color, type, box_2d
	for !sc.bad {
		var field uint8
		switch sc.str() {
		case "name":
			field = 1
		case "color":
			field = 2
		case "type":
			field = 4
		case "box_2d":
			field = 8
		}
		sc.expect(':')
		if sc.bad || field == 0 || has&field != 0 {
			sc.bad = true // an unknown or repeated field too
			return o
		}
		has |= field
		switch field {
		case 1:
			o.Name = sc.str()
		case 2:
			o.Color = sc.str()
		case 4:
			o.Type = sc.str()
		case 8:
			sc.expect('[')
			for k := range 4 {
				if k > 0 {
					sc.expect(',')
				}
				if sc.bad {
					return o
				}
				o.Box[k] = sc.small()
			}
			sc.expect(']')
		}
		if !sc.closes('}') {
			break
		}
	}
	if has != 1|2|4|8 {
		sc.bad = true
	}
	return o
}
