package dyref

import "testing"

// BenchmarkBuildAndFactors is the router's input for one failed trial: the
// heat task whose egg went into the fridge cold.
func BenchmarkBuildAndFactors(b *testing.B) {
	s := byName("pick_heat_then_place").state()
	b.ReportAllocs()
	for b.Loop() {
		g, err := Build(s)
		if err != nil {
			b.Fatal(err)
		}
		_ = g.Factors()
	}
}

func BenchmarkRoute(b *testing.B) {
	r := trainedRouter(b)
	x := separable(1, 5)[0].X
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Route(x)
	}
}

// BenchmarkTrain is one training run of the default options on 400
// examples.
func BenchmarkTrain(b *testing.B) {
	ex := separable(400, 1)
	for b.Loop() {
		if _, err := Train(ex, fourTools()); err != nil {
			b.Fatal(err)
		}
	}
}
