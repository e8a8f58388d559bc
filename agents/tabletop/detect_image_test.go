package tabletop

import (
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestParseImageObjects(t *testing.T) {
	t.Parallel()
	good := `{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [100, 200, 180, 260]}, {"name": "blue bowl", "color": "blue", "type": "bowl", "box_2d": [300, 400, 420, 560]}]}`
	for _, tc := range []struct {
		why, reply string
		n          int    // objects read, when no error
		err        string // part of the error, when one is wanted
	}{
		{"the form the prompt asks for", good, 2, ""},
		{"a fenced json block, as chat models often write", "```json\n" + good + "\n```", 2, ""},
		{"an empty table is an empty list", `{"objects": []}`, 0, ""},
		{"Qwen-VL's pixel boxes are refused, saying why", `{"objects": [{"name": "red block", "color": "red", "type": "block", "bbox_2d": [10, 20, 30, 40]}]}`, 0, "Qwen-VL"},
		{"an object without a box", `{"objects": [{"name": "red block", "color": "red", "type": "block"}]}`, 0, `has no "box_2d"`},
		{"coordinates beyond the image's edges (pixels, say)", `{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [100, 200, 1180, 1260]}]}`, 0, "from 0 to 1000"},
		{"a box given as x before y does not order, or is empty", `{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [300, 200, 100, 260]}]}`, 0, "ymin < ymax"},
		{"a type that is neither block nor bowl", `{"objects": [{"name": "red cup", "color": "red", "type": "cup", "box_2d": [1, 2, 3, 4]}]}`, 0, `type "cup"`},
		{"a missing colour", `{"objects": [{"name": "block", "type": "block", "box_2d": [1, 2, 3, 4]}]}`, 0, "no colour"},
		{"a missing type", `{"objects": [{"name": "red", "color": "red", "box_2d": [1, 2, 3, 4]}]}`, 0, "no type"},
		{"a box of five values, which encoding/json would cut to four", `{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [1, 2, 3, 4, 5]}]}`, 0, "want 4 whole numbers"},
		{"a point given as a box, which encoding/json would pad with zeros", `{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [100, 200]}]}`, 0, "want 4 whole numbers"},
		{"objects is null", `{"objects": null}`, 0, `no "objects"`},
		{"a field the reply does not have", `{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [1, 2, 3, 4], "score": 0.9}]}`, 0, "unknown field"},
		{"prose around the object", "Here it is: " + good, 0, "not the JSON object"},
		{"text after the object", good + " Hope this helps.", 0, "after top-level value"},
		{"another top-level shape", `[{"name": "red block"}]`, 0, "not the JSON object"},
		{"no objects key at all", `{}`, 0, `no "objects"`},
		{"an open fence", "```json\n" + good, 0, "not closed"},
		{"an empty reply", "  ", 0, "empty"},
	} {
		objs, err := parseImageObjects(tc.reply)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.why, err)
		case tc.err == "" && len(objs) != tc.n:
			t.Errorf("%s: %d objects, want %d", tc.why, len(objs), tc.n)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.why, err, tc.err)
		}
	}
}

func TestSeenNodesNumberLikeTheGraph(t *testing.T) {
	t.Parallel()
	objs := []llm.ImageObject{
		{Color: "red", Type: "block", Box: [4]int{100, 200, 180, 260}},
		{Color: "Red", Type: "block", Box: [4]int{500, 600, 580, 660}},
		{Color: "blue", Type: "bowl", Box: [4]int{0, 0, 10, 20}},
	}
	got := seenNodes(objs)
	want := []struct {
		id string
		at [2]int
	}{{"red block 1", [2]int{140, 230}}, {"red block 2", [2]int{540, 630}}, {"blue bowl 1", [2]int{5, 10}}}
	for i, w := range want {
		if got[i].ID != w.id || got[i].At != w.at {
			t.Errorf("node %d: %s at %v, want %s at %v", i, got[i].ID, got[i].At, w.id, w.at)
		}
	}
}

// FuzzParseImageObjects: any reply is read or refused with a reason,
// never a panic, and what is read has boxes inside the image, ordered.
func FuzzParseImageObjects(f *testing.F) {
	f.Add(`{"objects": [{"name": "red block", "color": "red", "type": "block", "box_2d": [100, 200, 180, 260]}]}`)
	f.Add("```json\n{\"objects\": []}\n```")
	f.Add(`{"objects": [{"bbox_2d": [1,2,3,4]}]}`)
	f.Add(`{"objects": [{"color": "red", "type": "bowl", "box_2d": [0, 0, 1000, 1000]}]} trailing`)
	f.Add(`{"objects": null}`)
	f.Add("```")
	f.Add(`{"objects": [{"color": "red", "type": "block", "box_2d": [1, 2, 3, 4, 5]}]}`)
	// encoding/json matches keys whatever their case: the full read must
	// find the box where the strict read's decoder does.
	f.Add(`{"objects": [{"color": "red", "type": "block", "BoX_2d": [1, 2, 3, 4]}]}`)
	f.Fuzz(func(t *testing.T, reply string) {
		// The strict first read accepts nothing the full read refuses,
		// and reads what it accepts alike.
		if fast, ok := strictImageObjects(reply); ok {
			full, err := readImageObjects(reply)
			if err != nil || !slices.Equal(fast, full) {
				t.Errorf("the strict read took %q as %v; the full read gives %v, %v", reply, fast, full, err)
			}
		}
		objs, err := parseImageObjects(reply)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "detection reply") {
				t.Errorf("error %q does not say it is the detection reply's", err)
			}
			return
		}
		for _, o := range objs {
			b := o.Box
			if b[0] < 0 || b[3] > llm.BoxScale || b[0] >= b[2] || b[1] >= b[3] {
				t.Errorf("accepted box %v", b)
			}
		}
		_ = seenNodes(objs)
	})
}
