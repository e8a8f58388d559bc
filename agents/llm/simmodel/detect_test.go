package simmodel

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// seen is a Seen entry of an object with the usual attributes.
func seen(id, color, typ string, box [4]int, fraction float64) llm.Seen {
	return llm.Seen{ID: id, Attributes: map[string]string{scenes.AttrColor: color, scenes.AttrType: typ, scenes.AttrSize: "medium"}, Box: box, Fraction: fraction}
}

// detectRequest is a detection call on an image of w×h pixels.
func detectRequest(ss []llm.Seen, w, h int, temperature float64, sample int) llm.Request {
	cc := &llm.CallContext{Role: llm.CallDetect, Track: "tabletop", Robot: "robot1", Seen: ss, ImageSize: [2]int{w, h}, Format: llm.FormatJSON}
	return llm.Request{
		Messages:    []llm.Message{{Role: llm.RoleUser, Text: "List the objects in the image.", Images: []llm.Image{{Width: w, Height: h}}}},
		Context:     cc,
		Temperature: temperature,
		Sample:      sample,
	}
}

// detectWith asks model m to detect and reads its reply.
func detectWith(t testing.TB, m *Model, req llm.Request) (llm.ImageObjects, llm.Reply) {
	t.Helper()
	r, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var got llm.ImageObjects
	if err := json.Unmarshal([]byte(r.Text), &got); err != nil {
		t.Fatalf("reply %q: %v", r.Text, err)
	}
	return got, r
}

// A table of three objects on a 640×480 image, in no particular order.
var detectTable = []llm.Seen{
	seen("blue bowl 1", "blue", "bowl", [4]int{300, 200, 380, 260}, 1),
	seen("red block 1", "red", "block", [4]int{100, 50, 130, 80}, 0.9),
	seen("green block 1", "green", "block", [4]int{400, 50, 428, 78}, 0.6),
}

// sim:perfect lists exactly the objects visible enough, named by colour
// and type, with their normalised boxes, top to bottom then left to right.
func TestDetectPerfect(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	red := llm.ImageObject{Name: "red block", Color: "red", Type: "block", Box: llm.NormBox([4]int{100, 50, 130, 80}, 640, 480)}
	green := llm.ImageObject{Name: "green block", Color: "green", Type: "block", Box: llm.NormBox([4]int{400, 50, 428, 78}, 640, 480)}
	bowl := llm.ImageObject{Name: "blue bowl", Color: "blue", Type: "bowl", Box: llm.NormBox([4]int{300, 200, 380, 260}, 640, 480)}
	for _, tc := range []struct {
		why  string
		seen []llm.Seen
		w, h int
		want []llm.ImageObject
	}{
		{"every object, by box: the two blocks share a top, the left one first", detectTable, 640, 480, []llm.ImageObject{red, green, bowl}},
		{"the context's order does not matter", []llm.Seen{detectTable[2], detectTable[0], detectTable[1]}, 640, 480, []llm.ImageObject{red, green, bowl}},
		{"an object just at the floor is listed", []llm.Seen{seen("red block 1", "red", "block", [4]int{100, 50, 130, 80}, DetectFloor)}, 640, 480, []llm.ImageObject{red}},
		{"an object below the floor is not", append(slices.Clone(detectTable[:2]), seen("green block 1", "green", "block", [4]int{400, 50, 428, 78}, 0.09)), 640, 480, []llm.ImageObject{red, bowl}},
		{"an object with nothing visible is not", []llm.Seen{detectTable[0], seen("pink block 1", "pink", "block", [4]int{}, 0)}, 640, 480, []llm.ImageObject{bowl}},
		{"a box past the image's edge is clipped to it", []llm.Seen{seen("red block 1", "red", "block", [4]int{620, -10, 660, 20}, 0.4)}, 640, 480,
			[]llm.ImageObject{{Name: "red block", Color: "red", Type: "block", Box: llm.NormBox([4]int{620, 0, 640, 20}, 640, 480)}}},
		{"two objects of one name are both listed", []llm.Seen{seen("red block 1", "red", "block", [4]int{100, 50, 130, 80}, 1), seen("red block 2", "red", "block", [4]int{100, 10, 130, 40}, 1)}, 640, 480,
			[]llm.ImageObject{{Name: "red block", Color: "red", Type: "block", Box: llm.NormBox([4]int{100, 10, 130, 40}, 640, 480)}, red}},
		{"an object without a colour is named by its type", []llm.Seen{{ID: "x", Attributes: map[string]string{scenes.AttrType: "block"}, Box: [4]int{100, 50, 130, 80}, Fraction: 1}}, 640, 480,
			[]llm.ImageObject{{Name: "block", Type: "block", Box: red.Box}}},
		{"an empty image shows nothing", detectTable, 0, 480, []llm.ImageObject{}},
		{"an image too large to read shows nothing", detectTable, 640, 1 << 21, []llm.ImageObject{}},
		{"nothing in view", nil, 640, 480, []llm.ImageObject{}},
	} {
		got, _ := detectWith(t, m, detectRequest(tc.seen, tc.w, tc.h, 0, 0))
		if !slices.Equal(got.Objects, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.why, got.Objects, tc.want)
		}
	}
	// The bytes, once: a reply as a real model would write it.
	_, r := detectWith(t, m, detectRequest(detectTable[1:2], 640, 480, 0, 0))
	if want := `{"objects":[{"name":"red block","color":"red","type":"block","box_2d":[104,156,167,203]}]}`; r.Text != want {
		t.Errorf("reply %s, want %s", r.Text, want)
	}
	if r.OutputTokens != (len(r.Text)+3)/4 || r.InputTokens == 0 || r.FinishReason != llm.FinishStop {
		t.Errorf("reply of %d bytes: %d output tokens, %d input, finish %q", len(r.Text), r.OutputTokens, r.InputTokens, r.FinishReason)
	}
}

// missRate is the share of n samples of a detection in which the object
// at index i of ss is missing from a reply (matched by its box).
func missRate(t *testing.T, m *Model, ss []llm.Seen, i, n int) float64 {
	t.Helper()
	box := llm.NormBox(ss[i].Box, 640, 480)
	missed := 0
	for s := range n {
		got, _ := detectWith(t, m, detectRequest(ss, 640, 480, 1, s))
		if !slices.ContainsFunc(got.Objects, func(o llm.ImageObject) bool { return o.Box == box }) {
			missed++
		}
	}
	return float64(missed) / float64(n)
}

// Misses follow the formula of doc.go over many samples: a mostly hidden
// or small object is missed far more often than one in plain view, and a
// crowd raises every rate.
func TestDetectMisses(t *testing.T) {
	const n = 2000
	m := profile(t, "miss=0.1")
	visible := seen("red block 1", "red", "block", [4]int{100, 50, 130, 80}, 1)
	hidden := seen("blue block 1", "blue", "block", [4]int{300, 50, 330, 80}, 0.15)
	small := seen("cyan block 1", "cyan", "block", [4]int{500, 50, 506, 56}, 1)
	crowd := []llm.Seen{visible}
	for i := range 23 {
		crowd = append(crowd, seen(fmt.Sprintf("gray block %d", i+1), "gray", "block", [4]int{20 * i, 300, 20*i + 18, 318}, 1))
	}
	for _, tc := range []struct {
		why  string
		seen []llm.Seen
		i    int
		want float64 // miss·(1 + n/24)·(1 + 8h + 8s)
	}{
		{"in plain view, beside two others", []llm.Seen{visible, hidden, small}, 0, 0.1 * (1 + 3.0/24)},
		{"85% hidden: h = 0.7", []llm.Seen{visible, hidden, small}, 1, 0.1 * (1 + 3.0/24) * (1 + 8*0.7)},
		{"a 6 px box: s = 0.5", []llm.Seen{visible, hidden, small}, 2, 0.1 * (1 + 3.0/24) * (1 + 8*0.5)},
		{"in plain view among 24: the crowd doubles the rate", crowd, 0, 0.1 * 2},
	} {
		got := missRate(t, m, tc.seen, tc.i, n)
		// Three standard errors of a share of n draws.
		if tol := 3 * math.Sqrt(tc.want*(1-tc.want)/n); math.Abs(got-tc.want) > tol {
			t.Errorf("%s: missed in %.3f of %d samples, want %.3f ± %.3f", tc.why, got, n, tc.want, tol)
		}
	}
	if v, h := missRate(t, m, []llm.Seen{visible, hidden}, 0, n), missRate(t, m, []llm.Seen{visible, hidden}, 1, n); h <= 2*v {
		t.Errorf("the hidden object missed in %.3f of samples, the visible one in %.3f", h, v)
	}
}

// A confused colour is always a close one, never another; a colour with
// no close one is never confused; closeColors is symmetric and names only
// the table's colours.
func TestDetectColorSwap(t *testing.T) {
	for c, near := range closeColors {
		if !slices.Contains(scenes.Colors, c) {
			t.Errorf("%s is not a colour of the table", c)
		}
		for _, o := range near {
			if !slices.Contains(closeColors[o], c) {
				t.Errorf("%s is close to %s but not %s to %s", o, c, c, o)
			}
		}
	}
	for _, c := range scenes.Colors {
		if len(closeColors[c]) == 0 {
			t.Errorf("%s has no close colour", c)
		}
	}
	var ss []llm.Seen
	for i, c := range append(slices.Clone(scenes.Colors), "silver") {
		ss = append(ss, seen(c+" block 1", c, "block", [4]int{40 * i, 100, 40*i + 30, 130}, 1))
	}
	for _, tc := range []struct {
		why, spec string
		rate      float64 // the least share of swapped colours
	}{
		{"every colour swapped", "colorswap=1", 1},
		{"some colours swapped", "colorswap=0.3", 0.2},
	} {
		m := profile(t, tc.spec)
		swapped, total := map[string]map[string]bool{}, 0
		for s := range 200 {
			got, _ := detectWith(t, m, detectRequest(ss, 640, 480, 1, s))
			if len(got.Objects) != len(ss) {
				t.Fatalf("%s: %d objects, want %d", tc.why, len(got.Objects), len(ss))
			}
			for i, o := range got.Objects {
				truth := ss[i].Attributes[scenes.AttrColor]
				if o.Name != o.Color+" block" {
					t.Errorf("%s: %+v is not named by its colour", tc.why, o)
				}
				if o.Color == truth {
					if truth != "silver" && tc.rate == 1 {
						t.Errorf("%s: %s kept", tc.why, truth)
					}
					continue
				}
				if !slices.Contains(closeColors[truth], o.Color) {
					t.Errorf("%s: %s read as %s, not a close colour", tc.why, truth, o.Color)
				}
				if swapped[truth] == nil {
					swapped[truth] = map[string]bool{}
				}
				swapped[truth][o.Color] = true
				total++
			}
		}
		if share := float64(total) / float64(200*len(scenes.Colors)); share < tc.rate {
			t.Errorf("%s: %.2f of colours swapped", tc.why, share)
		}
		if tc.rate == 1 {
			for c, near := range closeColors {
				if len(swapped[c]) != len(near) {
					t.Errorf("%s: %s read as %v, want each of %v", tc.why, c, swapped[c], near)
				}
			}
		}
	}
}

// Duplicates and phantoms at rate 1: every object twice, the second box
// of the same size and moved, and one object of a type in view, in a
// colour no object of its type has, that nothing is under.
func TestDetectDuplicateAndPhantom(t *testing.T) {
	for s := range 50 {
		got, _ := detectWith(t, profile(t, "duplicate=1"), detectRequest(detectTable, 640, 480, 1, s))
		if len(got.Objects) != 2*len(detectTable) {
			t.Fatalf("duplicates: %+v", got.Objects)
		}
		for _, sn := range detectTable {
			box := llm.NormBox(sn.Box, 640, 480)
			var twins []llm.ImageObject
			for _, o := range got.Objects {
				if o.Color == sn.Attributes[scenes.AttrColor] {
					twins = append(twins, o)
				}
			}
			if len(twins) != 2 || !slices.ContainsFunc(twins, func(o llm.ImageObject) bool { return o.Box == box }) || twins[0].Box == twins[1].Box {
				t.Fatalf("%s: %+v", sn.ID, twins)
			}
			for _, o := range twins {
				if o.Box[2]-o.Box[0] != box[2]-box[0] || o.Box[3]-o.Box[1] != box[3]-box[1] {
					t.Errorf("%s: duplicate %v of %v changes size", sn.ID, o.Box, box)
				}
			}
		}

		if got, _ := detectWith(t, profile(t, "phantom=1"), detectRequest(detectTable, 0, 0, 1, s)); len(got.Objects) != 0 {
			t.Fatalf("a phantom in an empty image: %+v", got.Objects)
		}
		if got, _ := detectWith(t, profile(t, "phantom=1"), detectRequest(nil, 640, 480, 1, s)); len(got.Objects) != 1 || got.Objects[0].Type != "block" {
			t.Fatalf("a phantom on an empty table: %+v, want one block", got.Objects)
		}
		got, _ = detectWith(t, profile(t, "phantom=1"), detectRequest(detectTable, 640, 480, 1, s))
		if len(got.Objects) != len(detectTable)+1 {
			t.Fatalf("phantom: %+v", got.Objects)
		}
		var extra []llm.ImageObject
		for _, o := range got.Objects {
			if !slices.ContainsFunc(detectTable, func(sn llm.Seen) bool { return llm.NormBox(sn.Box, 640, 480) == o.Box }) {
				extra = append(extra, o)
			}
		}
		if len(extra) != 1 || (extra[0].Type != "block" && extra[0].Type != "bowl") ||
			slices.ContainsFunc(detectTable, func(sn llm.Seen) bool {
				return sn.Attributes[scenes.AttrColor] == extra[0].Color && sn.Attributes[scenes.AttrType] == extra[0].Type
			}) {
			t.Errorf("phantom: %+v", extra)
		}
	}
}

// The same request gets the same bytes from any model of the same spec,
// at any concurrency; samples at temperature > 0 differ, a salt changes
// the draws, and the order of Seen does not.
func TestDetectDeterministic(t *testing.T) {
	req := func(sample int, ss []llm.Seen) llm.Request { return detectRequest(ss, 640, 480, 1, sample) }
	reply := func(m *Model, r llm.Request) string {
		got, err := m.Generate(context.Background(), r)
		if err != nil {
			t.Error(err)
		}
		return got.Text
	}
	spec := "miss=0.3,colorswap=0.3,duplicate=0.3,phantom=0.3"
	want := make([]string, 40)
	for s := range want {
		want[s] = reply(profile(t, spec), req(s, detectTable))
	}
	var wg sync.WaitGroup
	m := profile(t, spec)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range want {
				if got := reply(m, req(s, detectTable)); got != want[s] {
					t.Errorf("sample %d: %s, then %s", s, want[s], got)
				}
			}
		}()
	}
	wg.Wait()
	for _, tc := range []struct {
		why   string
		m     *Model
		ss    []llm.Seen
		equal bool // the 40 replies are want's
	}{
		{"Seen in another order", profile(t, spec), []llm.Seen{detectTable[2], detectTable[0], detectTable[1]}, true},
		{"another salt", profile(t, spec+",salt=1"), detectTable, false},
	} {
		same := true
		for s := range want {
			same = same && reply(tc.m, req(s, tc.ss)) == want[s]
		}
		if same != tc.equal {
			t.Errorf("%s: the same replies %v, want %v", tc.why, same, tc.equal)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(want)))) < 5 {
		t.Errorf("samples at temperature 1 hardly differ: %q", want)
	}
	// At temperature 0 the sample does not matter.
	zero := detectRequest(detectTable, 640, 480, 0, 0)
	other := detectRequest(detectTable, 640, 480, 0, 7)
	if reply(m, zero) != reply(m, other) {
		t.Error("samples at temperature 0 differ")
	}
}

// The visual rates parse from a spec and are zero unless named; the
// named profiles have them, sim:perfect none.
func TestDetectRatesParse(t *testing.T) {
	p, err := ParseProfile("miss=0.2,colorswap=0.1,duplicate=0.05,phantom=0.01")
	if err != nil || p.Miss != 0.2 || p.ColorSwap != 0.1 || p.Duplicate != 0.05 || p.Phantom != 0.01 || p.Hallucinate != 0 {
		t.Errorf("got %+v, %v", p, err)
	}
	if Perfect.Miss+Perfect.ColorSwap+Perfect.Duplicate+Perfect.Phantom != 0 {
		t.Errorf("perfect errs: %+v", Perfect)
	}
	for _, q := range []Profile{Default, Weak} {
		if q.Miss <= 0 || q.ColorSwap <= 0 || q.Duplicate <= 0 || q.Phantom <= 0 {
			t.Errorf("%s has no visual rates: %+v", q.Name, q)
		}
	}
	if Weak.Miss <= Default.Miss || Weak.ColorSwap <= Default.ColorSwap || Weak.Duplicate <= Default.Duplicate || Weak.Phantom <= Default.Phantom {
		t.Error("weak sees better than the default")
	}
}

// FuzzDetect feeds a detection call arbitrary Seen lists: boxes anywhere,
// fractions of any float (NaN and infinities too), any attributes, any
// image size. The model must never panic, and its reply must be JSON that
// reads as llm.ImageObjects, every box ordered and inside 0–BoxScale
// (the malformed rate, which spoils any call's format, set to 0).
func FuzzDetect(f *testing.F) {
	f.Add([]byte{}, 640, 480, "red", 0.0, 0)
	f.Add(bytes.Repeat([]byte{10, 0, 0, 0, 20, 0, 0, 0, 40, 0, 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 3, 1}, 4), 640, 480, "red\xffblue", 1.0, 3)
	f.Add(bytes.Repeat([]byte{0xff}, 60), 0, 0, "", 0.7, 1)
	f.Add(bytes.Repeat([]byte{0x80, 1}, 70), 1, 1<<30, "gray", 1.0, 0)
	// A malformed reply is not JSON by design; the profiles here send none.
	weak := Weak
	weak.Malformed = 0
	models := []*Model{
		New(Perfect, "sim:perfect"),
		New(weak, "sim:weak"),
		New(Profile{Name: "eyes", Miss: 0.5, ColorSwap: 0.5, Duplicate: 0.7, Phantom: 1}, "sim:eyes"),
	}
	const entry = 26 // 4 int32 box coordinates, a float64 fraction, colour, type
	f.Fuzz(func(t *testing.T, data []byte, w, h int, colors string, temp float64, sample int) {
		cols := append(strings.Split(colors, "\xff"), scenes.Colors...)
		var ss []llm.Seen
		for i := 0; i+entry <= len(data) && len(ss) < 64; i += entry {
			d := data[i : i+entry]
			var box [4]int
			for k := range box {
				box[k] = int(int32(binary.LittleEndian.Uint32(d[4*k:])))
			}
			attrs := map[string]string{scenes.AttrColor: cols[int(d[24])%len(cols)]}
			if d[25]%3 != 2 {
				attrs[scenes.AttrType] = []string{"block", "bowl"}[d[25]%3]
			}
			ss = append(ss, llm.Seen{ID: fmt.Sprintf("o%d", d[25]%8), Attributes: attrs, Box: box, Fraction: math.Float64frombits(binary.LittleEndian.Uint64(d[16:]))})
		}
		if math.IsNaN(temp) || temp < 0 {
			temp = 0
		}
		for _, m := range models {
			r, err := m.Generate(context.Background(), detectRequest(ss, w, h, temp, max(sample, 0)))
			if err != nil {
				t.Fatal(err)
			}
			var got llm.ImageObjects
			dec := json.NewDecoder(strings.NewReader(r.Text))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil || got.Objects == nil {
				t.Fatalf("%s: reply %q: %v", m.Name(), r.Text, err)
			}
			for _, o := range got.Objects {
				b := o.Box
				if b[0] < 0 || b[1] < 0 || b[2] > llm.BoxScale || b[3] > llm.BoxScale || b[0] > b[2] || b[1] > b[3] {
					t.Fatalf("%s: box %v of %+v", m.Name(), b, o)
				}
			}
			if m.profile.Name == "perfect" {
				n := 0
				for _, s := range ss {
					if s.Fraction >= DetectFloor {
						n++
					}
				}
				if len(got.Objects) > n {
					t.Fatalf("perfect lists %d objects of %d visible enough", len(got.Objects), n)
				}
			}
		}
	})
}
