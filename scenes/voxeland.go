package scenes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// ClassUnknown is the class Voxeland gives what its detector could not
// name: walls, clutter, whole-room blobs.
const ClassUnknown = "unknown"

// VoxelandOptions tune DecodeVoxeland.
type VoxelandOptions struct {
	// KeepUnknown keeps instances whose most probable class is unknown (or
	// that have no class evidence at all); by default they are dropped,
	// since nothing can be asked of them.
	KeepUnknown bool
}

// The file shape. Fields are pointers so that a missing field can be told
// from a zero one.
type voxelandFile struct {
	Instances map[string]json.RawMessage `json:"instances"`
}

type voxelandInstance struct {
	BBox *struct {
		Center []float64 `json:"center"`
		Size   []float64 `json:"size"`
	} `json:"bbox"`
	Observations *float64       `json:"n_observations"`
	Results      *orderedScores `json:"results"`
}

// scoresError is a fault inside "results", reported with that field.
type scoresError struct{ msg string }

func (e *scoresError) Error() string { return e.msg }

// orderedScores keeps the class scores in file order and reports a
// duplicated class, which a Go map would silently collapse.
type orderedScores struct {
	classes []string
	scores  []float64
}

func (o *orderedScores) UnmarshalJSON(data []byte) error {
	// Fast path: a plain map, when it has as many classes as the object
	// has members (no class repeated). The token-by-token reading below
	// names the fault otherwise; it costs several times more, and maps of
	// a few hundred objects are read on every episode.
	var m map[string]float64
	if json.Unmarshal(data, &m) == nil && len(m) == countMembers(data) {
		o.classes = make([]string, 0, len(m))
		for c := range m {
			o.classes = append(o.classes, c)
		}
		slices.Sort(o.classes) // the order must not come from the map
		o.scores = make([]float64, len(o.classes))
		for i, c := range o.classes {
			o.scores[i] = m[c]
		}
		return nil
	}
	if err := o.decode(data); err != nil {
		return &scoresError{err.Error()}
	}
	return nil
}

// countMembers counts the members of a flat JSON object: the colons
// outside strings at depth 1.
func countMembers(data []byte) int {
	n, depth, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ':' && depth == 1:
			n++
		}
	}
	return n
}

func (o *orderedScores) decode(data []byte) error {
	if string(data) == "null" {
		return errors.New("want an object of class scores, got null")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object of class scores, got %s", jsonKind(tok))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		class := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("class %q: %w", class, err)
		}
		f, ok := v.(float64)
		if !ok {
			return fmt.Errorf("class %q: want a number, got %s", class, jsonKind(v))
		}
		if slices.Contains(o.classes, class) {
			return fmt.Errorf("class %q appears twice", class)
		}
		o.classes = append(o.classes, class)
		o.scores = append(o.scores, f)
	}
	_, err = dec.Token()
	return err
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// DecodeVoxeland reads a Voxeland semantic map:
//
//	{"instances": {"obj1": {"bbox": {"center": [x,y,z], "size": [x,y,z]},
//	  "n_observations": N, "results": {"class": score, …}}, …}}
//
// Scores are accumulated evidence and may be any non-negative size; they
// are normalised into probabilities, and each instance's classes are sorted
// most probable first (ties by name). Instances come out ordered by the
// number at the end of their id, then by id, so that the order does not
// depend on the file's key order. name (usually the file name) prefixes
// every error, which also names the instance and the field at fault; the
// map is named after name without its extension.
func DecodeVoxeland(r io.Reader, name string, opts VoxelandOptions) (*SemanticMap, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := &SemanticMap{Name: MapName(name)}
	add := func(in Instance) {
		if opts.KeepUnknown || (in.Best() != "" && in.Best() != ClassUnknown) {
			m.Instances = append(m.Instances, in)
		}
	}
	// One pass over a well-formed file; a file that fails it is read
	// again instance by instance, to name the instance at fault.
	var fast struct {
		Instances map[string]voxelandInstance `json:"instances"`
	}
	if json.Unmarshal(data, &fast) == nil && fast.Instances != nil {
		m.Instances = make([]Instance, 0, len(fast.Instances))
		for id, v := range fast.Instances {
			in, err := buildInstance(id, v)
			if err != nil {
				return nil, fmt.Errorf("%s: instance %q: %w", name, id, err)
			}
			add(in)
		}
		SortInstances(m.Instances)
		return m, nil
	}
	var f voxelandFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, describeVoxelandJSON(err))
	}
	if f.Instances == nil {
		return nil, fmt.Errorf("%s: field \"instances\": missing (want an object of instances)", name)
	}
	m.Instances = make([]Instance, 0, len(f.Instances))
	for id, raw := range f.Instances {
		in, err := decodeInstance(id, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: instance %q: %w", name, id, err)
		}
		add(in)
	}
	SortInstances(m.Instances)
	return m, nil
}

// MapName is the map name a file name gives: its base name without the
// extension ("maps/scene0011_00.json" → "scene0011_00").
func MapName(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	if i := strings.LastIndexByte(file, '.'); i > 0 {
		file = file[:i]
	}
	return file
}

func describeVoxelandJSON(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if te.Field == "" {
			return fmt.Errorf("want a JSON object with \"instances\", got JSON %s", te.Value)
		}
		return fmt.Errorf("field %q: want %s, got JSON %s", te.Field, te.Type, te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("malformed JSON at offset %d: %w", se.Offset, se)
	}
	return err
}

func decodeInstance(id string, raw json.RawMessage) (Instance, error) {
	in := Instance{ID: id}
	if id == "" {
		return in, errors.New("empty instance id")
	}
	var v voxelandInstance
	if err := json.Unmarshal(raw, &v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return in, fmt.Errorf("field %q: want %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		if errors.As(err, &te) {
			return in, fmt.Errorf("want an object, got JSON %s", te.Value)
		}
		var se *scoresError
		if errors.As(err, &se) {
			return in, fmt.Errorf("field \"results\": %s", se.msg)
		}
		return in, err
	}
	return buildInstance(id, v)
}

func buildInstance(id string, v voxelandInstance) (Instance, error) {
	in := Instance{ID: id}
	if id == "" {
		return in, errors.New("empty instance id")
	}
	if v.BBox == nil {
		return in, errors.New("field \"bbox\": missing")
	}
	var err error
	if in.Center, err = vec3("bbox.center", v.BBox.Center); err != nil {
		return in, err
	}
	if in.Size, err = vec3("bbox.size", v.BBox.Size); err != nil {
		return in, err
	}
	for i, s := range in.Size {
		if s < 0 {
			return in, fmt.Errorf("field \"bbox.size\": component %d is negative (%g)", i, s)
		}
	}
	if v.Observations == nil {
		return in, errors.New("field \"n_observations\": missing")
	}
	n := *v.Observations
	if n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
		return in, fmt.Errorf("field \"n_observations\": want a non-negative integer, got %g", n)
	}
	in.Observations = int(n)
	if v.Results == nil {
		return in, errors.New("field \"results\": missing")
	}
	in.Classes, in.Evidence, err = normalise(v.Results)
	return in, err
}

func vec3(field string, xs []float64) (mgl64.Vec3, error) {
	if xs == nil {
		return mgl64.Vec3{}, fmt.Errorf("field %q: missing", field)
	}
	if len(xs) != 3 {
		return mgl64.Vec3{}, fmt.Errorf("field %q: want 3 numbers, got %d", field, len(xs))
	}
	return mgl64.Vec3{xs[0], xs[1], xs[2]}, nil
}

// normalise turns evidence into a distribution. A zero total leaves the
// instance without classes: it carries no evidence for anything.
func normalise(r *orderedScores) ([]ClassScore, float64, error) {
	total := 0.0
	for i, s := range r.scores {
		if r.classes[i] == "" {
			return nil, 0, errors.New("field \"results\": empty class name")
		}
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return nil, 0, fmt.Errorf("field \"results.%s\": want a non-negative score, got %g", r.classes[i], s)
		}
		total += s
	}
	if math.IsInf(total, 0) {
		return nil, 0, errors.New("field \"results\": scores overflow when summed")
	}
	if total == 0 {
		return nil, 0, nil
	}
	cs := make([]ClassScore, 0, len(r.scores))
	for i, s := range r.scores {
		if s == 0 {
			continue
		}
		cs = append(cs, ClassScore{Class: r.classes[i], P: s / total})
	}
	SortClasses(cs)
	return cs, total, nil
}

// SortClasses orders a distribution most probable first, ties by name.
func SortClasses(cs []ClassScore) {
	slices.SortStableFunc(cs, func(a, b ClassScore) int {
		if a.P != b.P {
			if a.P > b.P {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Class, b.Class)
	})
}

// SortInstances orders instances by the number their id ends with, then by
// id ("obj2" before "obj10"; ids without a number first).
func SortInstances(ins []Instance) {
	slices.SortStableFunc(ins, func(a, b Instance) int { return CompareIDs(a.ID, b.ID) })
}

// CompareIDs compares instance ids by their numeric suffix, then as
// strings. Suffixes are compared as digit strings, so no id overflows.
func CompareIDs(a, b string) int {
	na, nb := numericSuffix(a), numericSuffix(b)
	if (na == "") != (nb == "") {
		if na == "" {
			return -1
		}
		return 1
	}
	if na != "" {
		ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
		if len(ta) != len(tb) {
			return len(ta) - len(tb)
		}
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
	}
	return strings.Compare(a, b)
}

func numericSuffix(id string) string {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	return id[i:]
}

// EncodeVoxeland writes m in Voxeland's layout, instances in m's order.
// Scores are written as evidence (P×Evidence, to 12 significant digits)
// when the instance has evidence, as probabilities otherwise; a file whose
// scores have at most 12 significant digits is written back with its own
// numbers, so a map read and written once is read back unchanged.
func EncodeVoxeland(w io.Writer, m *SemanticMap) error {
	var b bytes.Buffer
	b.WriteString("{\n  \"instances\": {")
	seen := make(map[string]bool, len(m.Instances))
	for i, in := range m.Instances {
		if seen[in.ID] {
			return fmt.Errorf("map %q: instance %q appears twice", m.Name, in.ID)
		}
		seen[in.ID] = true
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		writeJSONString(&b, in.ID)
		b.WriteString(": {\n      \"bbox\": {\"center\": ")
		if err := writeVec(&b, in.Center); err != nil {
			return fmt.Errorf("map %q: instance %q: field \"bbox.center\": %w", m.Name, in.ID, err)
		}
		b.WriteString(", \"size\": ")
		if err := writeVec(&b, in.Size); err != nil {
			return fmt.Errorf("map %q: instance %q: field \"bbox.size\": %w", m.Name, in.ID, err)
		}
		fmt.Fprintf(&b, "},\n      \"n_observations\": %d,\n      \"results\": {", in.Observations)
		for j, c := range in.Classes {
			if j > 0 {
				b.WriteString(", ")
			}
			writeJSONString(&b, c.Class)
			b.WriteString(": ")
			s := c.P
			if in.Evidence > 0 {
				s = c.P * in.Evidence
			}
			if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
				return fmt.Errorf("map %q: instance %q: class %q: score %g cannot be written", m.Name, in.ID, c.Class, s)
			}
			b.WriteString(strconv.FormatFloat(s, 'g', 12, 64))
		}
		b.WriteString("}\n    }")
	}
	b.WriteString("\n  }\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

func writeVec(b *bytes.Buffer, v mgl64.Vec3) error {
	b.WriteByte('[')
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%g is not a JSON number", x)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	}
	b.WriteByte(']')
	return nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}
