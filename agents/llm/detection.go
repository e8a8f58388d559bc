package llm

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/ambibench/ambibench/scenes"
)

// Detection is one object a detector found: its id, its attributes, and
// the centre and full size of its box in the table frame, in millimetres
// to a hundredth (x to the right, y away from the robots, z up from the
// table top): fine enough that the relations the boxes give are, but for
// a pair within a hundredth of a millimetre of a threshold, the table's.
// It is the JSON of the detect_objects tool's result.
type Detection struct {
	ID         string            `json:"id"`
	Attributes map[string]string `json:"attributes"`
	Pos        [3]float64        `json:"pos"`
	Size       [3]float64        `json:"size"`
	// Box is where a detection read from a camera image lies in it:
	// [ymin, xmin, ymax, xmax] in 0–BoxScale (see ImageObject); zero for
	// the object detector's detections, which have Pos and Size instead.
	Box [4]int `json:"box_2d,omitzero"`
}

// DetectionOf is the detection of an object: its attributes, with its
// workspace when it lies in one (as a scene graph's node has it), and its
// box in millimetres, rounded to a hundredth. An object in no workspace
// lends the detection its own attribute map, which a table's objects
// share with their world and nobody changes (physics.New): read a
// detection's attributes, never change them. A crowded table's camera
// view copied 48 maps a look.
func DetectionOf(o scenes.Object) Detection {
	attrs := o.Attributes
	if o.Region != "" && o.Region != scenes.RegionTable {
		attrs = make(map[string]string, len(o.Attributes)+1)
		for k, v := range o.Attributes {
			attrs[k] = v
		}
		attrs[scenes.AttrWorkspace] = o.Region
	} else if attrs == nil {
		attrs = map[string]string{} // as a copy's would be
	}
	d := Detection{ID: o.ID, Attributes: attrs}
	for i := range 3 {
		d.Pos[i], d.Size[i] = mm(o.Pose[i]), mm(o.Extent[i])
	}
	return d
}

// Object is the object a detection describes, as far as it tells: its
// class is its type attribute and its region its workspace.
func (d Detection) Object() scenes.Object {
	o := scenes.Object{ID: d.ID, Class: d.Attributes[scenes.AttrType], Attributes: make(map[string]string, len(d.Attributes))}
	for k, v := range d.Attributes {
		if k == scenes.AttrWorkspace {
			o.Region = v
			continue
		}
		o.Attributes[k] = v
	}
	for i := range 3 {
		o.Pose[i], o.Extent[i] = d.Pos[i]/1000, d.Size[i]/1000
	}
	return o
}

// TableXY is the centre of the detection's box on the table plane in
// metres, to the millimetre, with no negative zero: the position the
// tabletop baselines' object lists print at three decimals.
func (d Detection) TableXY() (x, y float64) {
	return metres(d.Pos[0]), metres(d.Pos[1])
}

func metres(mm float64) float64 {
	r := math.Round(mm) / 1000
	if r == 0 {
		return 0
	}
	return r
}

// mm converts metres to millimetres, to a hundredth.
func mm(m float64) float64 { return math.Round(m*1e5) / 100 }

// DetectionsJSON writes ds as json.Marshal does, byte for byte, without
// its reflection: detect_objects writes a crowded table's list at every
// look. A string that JSON would escape falls back to json.Marshal.
func DetectionsJSON(ds []Detection) []byte {
	b := make([]byte, 0, 160*len(ds)+2)
	b = append(b, '[')
	var keys []string
	for i := range ds {
		d := &ds[i]
		if i > 0 {
			b = append(b, ',')
		}
		if !plainJSON(d.ID) {
			return marshalDetections(ds)
		}
		b = append(b, `{"id":"`...)
		b = append(b, d.ID...)
		b = append(b, `","attributes":`...)
		if d.Attributes == nil {
			b = append(b, "null"...)
		} else {
			keys = keys[:0]
			for k, v := range d.Attributes {
				if !plainJSON(k) || !plainJSON(v) {
					return marshalDetections(ds)
				}
				keys = append(keys, k)
			}
			sortStrings(keys)
			b = append(b, '{')
			for j, k := range keys {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, '"')
				b = append(b, k...)
				b = append(b, `":"`...)
				b = append(b, d.Attributes[k]...)
				b = append(b, '"')
			}
			b = append(b, '}')
		}
		var ok bool
		b = append(b, `,"pos":`...)
		if b, ok = appendTriple(b, d.Pos); !ok {
			return marshalDetections(ds)
		}
		b = append(b, `,"size":`...)
		if b, ok = appendTriple(b, d.Size); !ok {
			return marshalDetections(ds)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func marshalDetections(ds []Detection) []byte {
	out, _ := json.Marshal(ds) // strings and finite numbers always encode
	return out
}

// plainJSON reports whether s is written in JSON as it stands, between
// quotes: printable ASCII that needs no escape (json.Marshal escapes <, >
// and & too).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// appendTriple writes three numbers as encoding/json does, for the
// numbers 'f' formatting gives alike; ok is false for the rest.
func appendTriple(b []byte, v [3]float64) ([]byte, bool) {
	b = append(b, '[')
	for i, f := range v {
		if a := math.Abs(f); math.IsInf(f, 0) || math.IsNaN(f) || (a != 0 && (a < 1e-6 || a >= 1e21)) {
			return b, false
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	return append(b, ']'), true
}

// sortStrings sorts a detection's few attribute keys in place.
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
