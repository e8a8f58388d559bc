package tabletop

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// Perception through the camera image (perception=image): the robot's
// image goes to the model with the detection prompt (detect_image.tmpl),
// whose reply lists the objects with boxes as llm.ImageObjects. The reply
// is read strictly: one JSON object, every object with a name, a colour,
// a type and a box in the asked convention. The boxes' centres are where
// the table acts (pick_and_place's pick_at and place_at).

// seenNode is a node of a graph perceived from the image, with where its
// box's centre lies in the image ([y, x] in 0–llm.BoxScale).
type seenNode struct {
	scenes.Node
	At  [2]int
	Box [4]int
}

// otherBoxKeys are the box keys of other conventions a model may answer
// with out of habit, and what they are, for the error that refuses them;
// in a fixed order, so that the error (which a retry prompt repeats, and a
// request hash reads) is the same on every run.
var otherBoxKeys = []struct{ key, what string }{
	{"bbox_2d", "Qwen-VL's box in pixels, [x1, y1, x2, y2]"},
	{"bbox", "a box in another convention"},
	{"box", "a box in another convention"},
	{"boxes", "a box in another convention"},
	{"point", "a point, not a box"},
}

// parseImageObjects reads a detection reply. A fenced ```json block is
// unwrapped; anything else but the one JSON object the prompt asks for is
// an error that says what was wrong, so that the agent's failure is
// recorded with its reason.
func parseImageObjects(text string) ([]llm.ImageObject, error) {
	body := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(body, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		inner, _, closed := strings.Cut(rest, "```")
		if !closed {
			return nil, errors.New("detection reply: a ``` fence is not closed")
		}
		body = strings.TrimSpace(inner)
	}
	if body == "" {
		return nil, errors.New("detection reply: empty; want {\"objects\": [...]}")
	}
	// The strict read first: a reply as asked for is read once. Only a
	// reply it refuses is read again, loosely, to say what was wrong.
	if objs, ok := strictImageObjects(body); ok {
		return objs, nil
	}
	return readImageObjects(body)
}

// readImageObjects reads a detection reply's JSON body, naming what is
// wrong with it.
func readImageObjects(body string) ([]llm.ImageObject, error) {
	var loose struct {
		Objects []map[string]json.RawMessage `json:"objects"`
	}
	if err := json.Unmarshal([]byte(body), &loose); err != nil {
		return nil, fmt.Errorf("detection reply: not the JSON object asked for: %v", err)
	}
	if loose.Objects == nil {
		return nil, errors.New("detection reply: no \"objects\" list")
	}
	for i, o := range loose.Objects {
		// encoding/json, which decodes the reply below, matches a key to
		// a field whatever its case ("Box_2D"), so the box is looked for
		// the same way, each spelling in order for a stable error.
		boxKeys := slices.Sorted(maps.Keys(o))
		boxKeys = slices.DeleteFunc(boxKeys, func(k string) bool { return !strings.EqualFold(k, "box_2d") })
		for _, k := range boxKeys {
			// encoding/json fills a short array with zeros and drops the
			// rest of a long one: count the values first.
			var vals []json.RawMessage
			if err := json.Unmarshal(o[k], &vals); err != nil || len(vals) != 4 {
				return nil, fmt.Errorf("detection reply: object %d: %s %.40s: want 4 whole numbers [ymin, xmin, ymax, xmax]", i, k, o[k])
			}
		}
		if len(boxKeys) > 0 {
			continue
		}
		for _, other := range otherBoxKeys {
			if _, ok := o[other.key]; ok {
				return nil, fmt.Errorf("detection reply: object %d gives %q (%s); this call asks for \"box_2d\" as [ymin, xmin, ymax, xmax] from 0 to %d", i, other.key, other.what, llm.BoxScale)
			}
		}
		return nil, fmt.Errorf("detection reply: object %d has no \"box_2d\"", i)
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var reply llm.ImageObjects
	if err := dec.Decode(&reply); err != nil {
		return nil, fmt.Errorf("detection reply: %v", err)
	}
	for i, o := range reply.Objects {
		if err := checkImageObject(o); err != nil {
			return nil, fmt.Errorf("detection reply: object %d (%q): %w", i, o.Name, err)
		}
	}
	return reply.Objects, nil
}

func checkImageObject(o llm.ImageObject) error {
	b := o.Box
	switch {
	case strings.TrimSpace(o.Color) == "":
		return errors.New("no colour")
	case strings.TrimSpace(o.Type) == "":
		return errors.New("no type")
	case o.Type != scenes.ClassBlock && o.Type != scenes.ClassBowl:
		return fmt.Errorf("type %q: want %q or %q", o.Type, scenes.ClassBlock, scenes.ClassBowl)
	}
	for _, v := range b {
		if v < 0 || v > llm.BoxScale {
			return fmt.Errorf("box_2d %v: every value must lie from 0 to %d (the image's edges)", b, llm.BoxScale)
		}
	}
	if b[0] >= b[2] || b[1] >= b[3] {
		return fmt.Errorf("box_2d %v: want [ymin, xmin, ymax, xmax] with ymin < ymax and xmin < xmax", b)
	}
	return nil
}

// seenNodes names the detected objects as a scene graph names its
// nodes, "red block 1", numbering each colour and type in reply order.
// Nodes of one colour and type share one attribute map, which nothing
// changes: a crowded table's reply lists dozens of objects of a few kinds.
// A kind of the table's (tableKinds) shares the map every look shares.
func seenNodes(objs []llm.ImageObject) []seenNode {
	type kind struct {
		color, typ string
		n          int
		attrs      map[string]string
	}
	kinds := make([]kind, 0, 8) // a few: found by a scan
	out := make([]seenNode, len(objs))
	// The ids, scenes.ObjectID's, are written one after the other into
	// one string and cut from it: one allocation, not one a node.
	var ids []byte
	ends := make([]int, len(objs))
	for i, o := range objs {
		color, typ := strings.ToLower(strings.TrimSpace(o.Color)), o.Type
		j := slices.IndexFunc(kinds, func(k kind) bool { return k.color == color && k.typ == typ })
		if j < 0 {
			j = len(kinds)
			attrs, ok := tableKinds[[2]string{color, typ}]
			if !ok {
				attrs = map[string]string{scenes.AttrType: typ, scenes.AttrColor: color}
			}
			kinds = append(kinds, kind{color: color, typ: typ, attrs: attrs})
		}
		k := &kinds[j]
		k.n++
		if ids == nil {
			ids = make([]byte, 0, len(objs)*(len(color)+len(typ)+4))
		}
		// scenes.ObjectID(color, typ, k.n)
		ids = append(append(append(append(ids, color...), ' '), typ...), ' ')
		ids = strconv.AppendInt(ids, int64(k.n), 10)
		ends[i] = len(ids)
		out[i] = seenNode{Node: scenes.Node{Attributes: k.attrs}, At: llm.BoxCentre(o.Box), Box: o.Box}
	}
	all, start := string(ids), 0
	for i := range out {
		out[i].ID, start = all[start:ends[i]], ends[i]
	}
	return out
}

// tableKinds are the attribute maps of the nodes of each colour and type
// of the table's (scenes.Colors, a block or a bowl), by colour and type,
// made once and shared by every look of every episode, which only read
// them (see seenNodes): a crowded table's detection reply lists a score
// of kinds, and making their maps was a third of reading it.
var tableKinds = func() map[[2]string]map[string]string {
	m := map[[2]string]map[string]string{}
	for _, typ := range []string{scenes.ClassBlock, scenes.ClassBowl} {
		for _, color := range scenes.Colors {
			m[[2]string{color, typ}] = map[string]string{scenes.AttrType: typ, scenes.AttrColor: color}
		}
	}
	return m
}()

// strictImageObjects reads a reply in the asked shape, every object
// checked; ok is false for anything else, which readImageObjects then
// reads again to say what is wrong with it. What it accepts,
// readImageObjects accepts alike (FuzzParseImageObjects).
func strictImageObjects(body string) ([]llm.ImageObject, bool) {
	if out, ok := fastImageObjects(body); ok {
		return out, true
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var reply struct {
		Objects *[]struct {
			Name  string `json:"name"`
			Color string `json:"color"`
			Type  string `json:"type"`
			Box   []int  `json:"box_2d"`
		} `json:"objects"`
	}
	if dec.Decode(&reply) != nil || reply.Objects == nil || strings.TrimSpace(body[dec.InputOffset():]) != "" {
		return nil, false
	}
	out := make([]llm.ImageObject, len(*reply.Objects))
	for i, o := range *reply.Objects {
		if len(o.Box) != 4 {
			return nil, false
		}
		out[i] = llm.ImageObject{Name: o.Name, Color: o.Color, Type: o.Type, Box: [4]int(o.Box)}
		if checkImageObject(out[i]) != nil {
			return nil, false
		}
	}
	return out, true
}
