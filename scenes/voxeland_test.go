package scenes_test

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// voxel builds one instance's JSON.
func voxel(id, center, size, obs, results string) string {
	return fmt.Sprintf(`%q: {"bbox": {"center": %s, "size": %s}, "n_observations": %s, "results": %s}`, id, center, size, obs, results)
}

func voxelFile(instances ...string) string {
	return `{"instances": {` + strings.Join(instances, ",") + `}}`
}

const paperExample = `{"instances": {
  "obj1": {"bbox": {"center": [3.30, 2.00, 0.36], "size": [0.23, 0.1, 0.05]},
           "n_observations": 147, "results": {"cell phone": 72, "remote": 26, "tie": 2}},
  "obj10": {"bbox": {"center": [0, 0, 0.4], "size": [0.5, 0.5, 0.9]},
           "n_observations": 9, "results": {"couch": 3, "chair": 3}},
  "obj2": {"bbox": {"center": [1, 1, 1], "size": [3, 3, 2]},
           "n_observations": 1, "results": {"unknown": 67.25, "chair": 1}},
  "obj3": {"bbox": {"center": [1, 1, 1], "size": [1, 1, 1]},
           "n_observations": 0, "results": {}}
}}`

func TestDecodeVoxeland(t *testing.T) {
	m, err := scenes.DecodeVoxeland(strings.NewReader(paperExample), "maps/scene0011.json", scenes.VoxelandOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "scene0011" {
		t.Errorf("name %q, want scene0011 (the file's base name without extension)", m.Name)
	}
	var ids []string
	for _, in := range m.Instances {
		ids = append(ids, in.ID)
	}
	// obj2 (best unknown) and obj3 (no evidence) drop; obj1 before obj10
	// by number, whatever the file's order.
	if want := []string{"obj1", "obj10"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	phone := m.Instances[0]
	want := []scenes.ClassScore{{"cell phone", 0.72}, {"remote", 0.26}, {"tie", 0.02}}
	for i, c := range phone.Classes {
		if c.Class != want[i].Class || math.Abs(c.P-want[i].P) > 1e-12 {
			t.Errorf("class %d = %v, want %v (evidence 72/26/2 normalised)", i, c, want[i])
		}
	}
	if phone.Evidence != 100 || phone.Observations != 147 || phone.Center != (mgl64.Vec3{3.3, 2, 0.36}) {
		t.Errorf("obj1 = %+v", phone)
	}
	// A tie is broken by name, so chair comes before couch.
	if got := m.Instances[1].Classes; got[0].Class != "chair" || got[1].Class != "couch" || got[0].P != 0.5 {
		t.Errorf("tied classes %v, want chair 0.5 then couch 0.5", got)
	}

	keep, err := scenes.DecodeVoxeland(strings.NewReader(paperExample), "x.json", scenes.VoxelandOptions{KeepUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(keep.Instances) != 4 || keep.Instances[1].Best() != scenes.ClassUnknown || keep.Instances[2].Best() != "" {
		t.Errorf("KeepUnknown: got %d instances %+v, want all 4 with obj2 unknown and obj3 classless", len(keep.Instances), keep.Instances)
	}
}

func TestDecodeVoxelandErrors(t *testing.T) {
	ok := voxel("obj4", "[0,0,0]", "[1,1,1]", "3", `{"chair": 1}`)
	for _, c := range []struct {
		why, data, want string
	}{
		{"a box needs three sizes", voxelFile(voxel("obj4", "[0,0,0]", "[1,1]", "3", `{"chair": 1}`)),
			`scene0011.json: instance "obj4": field "bbox.size": want 3 numbers, got 2`},
		{"a centre of the wrong type names the field", voxelFile(voxel("obj4", `"here"`, "[1,1,1]", "3", `{"chair": 1}`)),
			`scene0011.json: instance "obj4": field "bbox.center": want []float64, got JSON string`},
		{"evidence cannot be negative", voxelFile(voxel("obj4", "[0,0,0]", "[1,1,1]", "3", `{"chair": -1}`)),
			`scene0011.json: instance "obj4": field "results.chair": want a non-negative score, got -1`},
		{"a score must be a number", voxelFile(voxel("obj4", "[0,0,0]", "[1,1,1]", "3", `{"chair": "high"}`)),
			`scene0011.json: instance "obj4": field "results": class "chair": want a number, got a string`},
		{"a class listed twice would lose evidence", voxelFile(voxel("obj4", "[0,0,0]", "[1,1,1]", "3", `{"chair": 1, "chair": 2}`)),
			`scene0011.json: instance "obj4": field "results": class "chair" appears twice`},
		{"observations are a count", voxelFile(voxel("obj4", "[0,0,0]", "[1,1,1]", "2.5", `{"chair": 1}`)),
			`scene0011.json: instance "obj4": field "n_observations": want a non-negative integer, got 2.5`},
		{"a box size cannot be negative", voxelFile(voxel("obj4", "[0,0,0]", "[1,-1,1]", "3", `{"chair": 1}`)),
			`scene0011.json: instance "obj4": field "bbox.size": component 1 is negative (-1)`},
		{"the box is required", voxelFile(`"obj4": {"n_observations": 3, "results": {"chair": 1}}`),
			`scene0011.json: instance "obj4": field "bbox": missing`},
		{"results are required", voxelFile(`"obj4": {"bbox": {"center": [0,0,0], "size": [1,1,1]}, "n_observations": 3}`),
			`scene0011.json: instance "obj4": field "results": missing`},
		{"the instances object is required", `{"objects": {}}`,
			`scene0011.json: field "instances": missing (want an object of instances)`},
		{"an instance must be an object", `{"instances": {"obj4": 3}}`,
			`scene0011.json: instance "obj4": want an object, got JSON number`},
		{"a later bad instance is still found", voxelFile(ok, voxel("obj5", "[0,0]", "[1,1,1]", "3", `{}`)),
			`scene0011.json: instance "obj5": field "bbox.center": want 3 numbers, got 2`},
		{"truncated JSON", `{"instances": {`, `scene0011.json: malformed JSON at offset 15: unexpected end of JSON input`},
	} {
		_, err := scenes.DecodeVoxeland(strings.NewReader(c.data), "scene0011.json", scenes.VoxelandOptions{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.why, err, c.want)
		}
	}
}

func TestVoxelandRoundTrip(t *testing.T) {
	m, err := scenes.DecodeVoxeland(strings.NewReader(paperExample), "scene.json", scenes.VoxelandOptions{KeepUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := scenes.EncodeVoxeland(&first, m); err != nil {
		t.Fatal(err)
	}
	back, err := scenes.DecodeVoxeland(bytes.NewReader(first.Bytes()), "scene.json", scenes.VoxelandOptions{KeepUnknown: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, first.String())
	}
	if !reflect.DeepEqual(m, back) {
		t.Errorf("read, written, read: maps differ\n%+v\n%+v", m, back)
	}
	// The evidence written is the file's own.
	if !strings.Contains(first.String(), `"cell phone": 72, "remote": 26, "tie": 2`) {
		t.Errorf("evidence not written back as in the file:\n%s", first.String())
	}
	var second bytes.Buffer
	if err := scenes.EncodeVoxeland(&second, back); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("writing is not stable:\n%s\n%s", first.String(), second.String())
	}
}

func TestCompareIDs(t *testing.T) {
	ins := []scenes.Instance{{ID: "obj10"}, {ID: "obj2"}, {ID: "box"}, {ID: "obj002"}, {ID: "a2"}, {ID: "obj99999999999999999999999"}}
	scenes.SortInstances(ins)
	var got []string
	for _, in := range ins {
		got = append(got, in.ID)
	}
	// No number first; then by value (huge numbers do not overflow); equal
	// numbers by id.
	want := []string{"box", "a2", "obj002", "obj2", "obj10", "obj99999999999999999999999"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestRender(t *testing.T) {
	m := &scenes.SemanticMap{Instances: []scenes.Instance{
		{ID: "obj3", Center: mgl64.Vec3{1.2, 0.4, 0.45}, Size: mgl64.Vec3{0.5, 0.5, 0.9},
			Classes: []scenes.ClassScore{{"chair", 0.62}, {"couch", 0.31}, {"unknown", 0.068}, {"bed", 0.002}}},
		{ID: "obj7", Center: mgl64.Vec3{0, 0, 0}, Size: mgl64.Vec3{0.15, 0.07, 0.01}},
	}}
	for _, c := range []struct{ mode, want string }{
		{scenes.RenderCertainty, "obj3: chair, center (1.20, 0.40, 0.45), size (0.50, 0.50, 0.90)\nobj7: unknown, center (0.00, 0.00, 0.00), size (0.15, 0.07, 0.01)\n"},
		// bed's 0.002 rounds to 0.00 and is left out.
		{scenes.RenderUncertainty, "obj3: chair 0.62, couch 0.31, unknown 0.07, center (1.20, 0.40, 0.45), size (0.50, 0.50, 0.90)\nobj7: unknown, center (0.00, 0.00, 0.00), size (0.15, 0.07, 0.01)\n"},
		// An unknown mode is the paper's default input.
		{"fancy", "obj3: chair, center (1.20, 0.40, 0.45), size (0.50, 0.50, 0.90)\nobj7: unknown, center (0.00, 0.00, 0.00), size (0.15, 0.07, 0.01)\n"},
	} {
		if got := m.Render(c.mode); got != c.want {
			t.Errorf("Render(%q):\n%s\nwant\n%s", c.mode, got, c.want)
		}
	}
}

// FuzzDecodeVoxeland checks that DecodeVoxeland never panics, that what it
// accepts is a well-formed map (finite normalised distributions sorted,
// instances sorted, no unknown unless kept), and that writing and reading
// it back gives the same map.
func FuzzDecodeVoxeland(f *testing.F) {
	f.Add([]byte(paperExample), false)
	f.Add([]byte(paperExample), true)
	for _, s := range []string{
		`{}`, `null`, `[]`, `{"instances": null}`, `{"instances": {}}`,
		voxelFile(voxel("obj1", "[0,0,0]", "[1,1,1]", "1", `{"a": 1e308, "b": 1e308}`)),
		voxelFile(voxel("obj1", "[0,0,0]", "[1,1,1]", "1", `{"a": 5e-324}`)),
		voxelFile(voxel("", "[0,0,0]", "[1,1,1]", "1", `{"a": 1}`)),
		voxelFile(voxel("obj1", "[0,0,0]", "[1,1,1]", "1", `{"": 1}`)),
		voxelFile(voxel("obj1", "[0,0,0]", "[1,1,1]", "1e10", `{"a": 1}`)),
		voxelFile(voxel("obj1", "[1e308,0,0]", "[1,1,1]", "1", `{"a": 0, "b": 0}`)),
		`{"instances": {"obj1": {"bbox": null, "results": null}}}`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, keep bool) {
		opts := scenes.VoxelandOptions{KeepUnknown: keep}
		m, err := scenes.DecodeVoxeland(bytes.NewReader(data), "f.json", opts)
		if err != nil {
			if m != nil {
				t.Fatal("map returned with an error")
			}
			if !strings.HasPrefix(err.Error(), "f.json: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for i, in := range m.Instances {
			if i > 0 && scenes.CompareIDs(m.Instances[i-1].ID, in.ID) >= 0 {
				t.Fatalf("instances out of order: %s, %s", m.Instances[i-1].ID, in.ID)
			}
			if !keep && (in.Best() == "" || in.Best() == scenes.ClassUnknown) {
				t.Fatalf("instance %s kept with best class %q", in.ID, in.Best())
			}
			sum := 0.0
			for j, c := range in.Classes {
				if !(c.P > 0 && c.P <= 1) {
					t.Fatalf("instance %s: P(%s) = %g", in.ID, c.Class, c.P)
				}
				if j > 0 && c.P > in.Classes[j-1].P {
					t.Fatalf("instance %s: classes not sorted", in.ID)
				}
				sum += c.P
			}
			if len(in.Classes) > 0 && math.Abs(sum-1) > 1e-9 {
				t.Fatalf("instance %s: probabilities sum to %g", in.ID, sum)
			}
		}
		var b bytes.Buffer
		if err := scenes.EncodeVoxeland(&b, m); err != nil {
			t.Fatalf("cannot write an accepted map: %v", err)
		}
		back, err := scenes.DecodeVoxeland(bytes.NewReader(b.Bytes()), "f.json", opts)
		if err != nil {
			t.Fatalf("written map does not read back: %v\n%s", err, b.String())
		}
		if len(back.Instances) != len(m.Instances) {
			t.Fatalf("read back %d instances, want %d", len(back.Instances), len(m.Instances))
		}
		for i, in := range back.Instances {
			w := m.Instances[i]
			if in.ID != w.ID || in.Center != w.Center || in.Size != w.Size || in.Observations != w.Observations || len(in.Classes) != len(w.Classes) {
				t.Fatalf("instance %d read back as %+v, want %+v", i, in, w)
			}
			for j, c := range in.Classes {
				if math.Abs(c.P-w.Classes[j].P) > 1e-9 {
					t.Fatalf("instance %s class %d read back as %v, want %v", in.ID, j, c, w.Classes[j])
				}
			}
		}
	})
}
