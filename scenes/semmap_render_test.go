package scenes_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

func TestRenderJSON(t *testing.T) {
	m := &scenes.SemanticMap{Name: "m", Instances: []scenes.Instance{
		// Read from a file: evidence 50, which the prompt does not show.
		{ID: "obj3", Center: mgl64.Vec3{1.2, 0.404, -0.001}, Size: mgl64.Vec3{0.5, 0.5, 0.9}, Observations: 41, Evidence: 50,
			Classes: []scenes.ClassScore{{Class: "chair", P: 0.62}, {Class: "couch", P: 0.31}, {Class: "unknown", P: 0.07}}},
		{ID: "obj7", Center: mgl64.Vec3{0, 0, 0}, Size: mgl64.Vec3{0.15, 0.07, 0.01},
			Classes: []scenes.ClassScore{{Class: "cell phone", P: 0.745}, {Class: "remote", P: 0.255}}},
		{ID: `a "quoted" id`, Size: mgl64.Vec3{math.NaN(), 1, 1}},
	}}
	for _, c := range []struct {
		why, mode string
		want      []string
	}{
		{"certainty: the most probable class alone, taken as certain", scenes.RenderCertainty, []string{
			`{"instances": {`,
			`  "obj3": {"bbox": {"center": [1.20, 0.40, 0.00], "size": [0.50, 0.50, 0.90]}, "n_observations": 41, "results": {"chair": 1.00}},`,
			`  "obj7": {"bbox": {"center": [0.00, 0.00, 0.00], "size": [0.15, 0.07, 0.01]}, "n_observations": 0, "results": {"cell phone": 1.00}},`,
			`  "a \"quoted\" id": {"bbox": {"center": [0.00, 0.00, 0.00], "size": [null, 1.00, 1.00]}, "n_observations": 0, "results": {}}`,
			`}}`}},
		{"uncertainty: the distribution, every class, most probable first, unknown included", scenes.RenderUncertainty, []string{
			`{"instances": {`,
			`  "obj3": {"bbox": {"center": [1.20, 0.40, 0.00], "size": [0.50, 0.50, 0.90]}, "n_observations": 41, "results": {"chair": 0.62, "couch": 0.31, "unknown": 0.07}},`,
			`  "obj7": {"bbox": {"center": [0.00, 0.00, 0.00], "size": [0.15, 0.07, 0.01]}, "n_observations": 0, "results": {"cell phone": 0.74, "remote": 0.26}},`,
			`  "a \"quoted\" id": {"bbox": {"center": [0.00, 0.00, 0.00], "size": [null, 1.00, 1.00]}, "n_observations": 0, "results": {}}`,
			`}}`}},
		{"an unknown mode is certainty, the paper's default input", "", nil},
	} {
		want := strings.Join(c.want, "\n")
		if c.want == nil {
			want = m.RenderJSON(scenes.RenderCertainty)
		}
		if got := m.RenderJSON(c.mode); got != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.why, got, want)
		}
	}
	// What the prompt shows is a Voxeland file: the map's own reader
	// reads it back.
	m.Instances = m.Instances[:2]
	back, err := scenes.DecodeVoxeland(strings.NewReader(m.RenderJSON(scenes.RenderUncertainty)), "m.json", scenes.VoxelandOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Instances[0].Classes[1]; got.Class != "couch" || math.Abs(got.P-0.31) > 1e-9 {
		t.Errorf("read back obj3's runner-up as %+v, want couch 0.31", got)
	}
}
