package simmodel

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// crowdedImage is a camera image of a crowded table as the model is shown
// it: 48 objects on an 8 × 6 grid over the whole table, a quarter of them
// bowls, each seen whole in its cell of a 640 × 480 image, and the
// detections a perfect detection call lists for them. The perceive reply
// over them holds thousands of relations, as MaxSceneSize's tables do.
func crowdedImage() (seen []llm.Seen, ds []llm.Detection, size [2]int) {
	const cols, rows, w, h = 8, 6, 640, 480
	for i, o := range scenes.GridTable(cols, rows) {
		px, py := (i%cols)*w/cols, (rows-1-i/cols)*h/rows
		d := llm.DetectionOf(o) // the table frame in mm, as the table's camera gives it
		s := llm.Seen{ID: o.ID, Attributes: d.Attributes, Box: [4]int{px + 8, py + 8, px + w/cols - 8, py + h/rows - 8},
			Fraction: 1, Pos: d.Pos, Size: d.Size}
		seen = append(seen, s)
		ds = append(ds, llm.Detection{ID: o.ID, Attributes: o.Attributes, Box: llm.NormBox(s.Box, w, h)})
	}
	return seen, ds, [2]int{w, h}
}

// BenchmarkPerceiveImage is the simulated model's scene-graph reply to
// the image of a crowded table (crowdedImage), the whole Generate call:
// 48 listed objects, 2,800 relations written.
//
//	go test -run '^$' -bench 'PerceiveImage|DetectImage' -count 5 ./agents/llm/simmodel/
func BenchmarkPerceiveImage(b *testing.B) {
	seen, ds, size := crowdedImage()
	m := New(Default, "sim")
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Write the scene graph."}},
		Context: &llm.CallContext{Role: llm.CallPerceive, Track: "tabletop", Robot: "robot1", Detections: ds,
			Seen: seen, ImageSize: size, Format: llm.FormatJSON}}
	n := 0
	for b.Loop() {
		r, err := m.Generate(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		n = len(r.Text)
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkDetectImage is the simulated model's detection reply to the
// same image, the whole Generate call: 48 objects listed with their boxes.
func BenchmarkDetectImage(b *testing.B) {
	seen, _, size := crowdedImage()
	m := New(Default, "sim")
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "List the objects."}},
		Context: &llm.CallContext{Role: llm.CallDetect, Track: "tabletop", Robot: "robot1",
			Seen: seen, ImageSize: size, Format: llm.FormatJSON}}
	n := 0
	for b.Loop() {
		r, err := m.Generate(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		n = len(r.Text)
	}
	b.ReportMetric(float64(n), "bytes")
}
