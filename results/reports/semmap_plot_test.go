package reports

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// plotRecords is a fixed small run: three agents on maps of 10, 40 and 120
// objects, four queries each, with Top-Any falling with size at a rate of
// each agent's own (rules 4, 3, 2 hits of 4; baseline 3, 2, 1; random 1,
// 0, 0), and a tabletop record the plot must ignore.
func plotRecords() []results.Record {
	hits := map[string][3]int{"rules": {4, 3, 2}, "baseline": {3, 2, 1}, "random": {1, 0, 0}}
	models := map[string]string{"baseline": "sim"}
	var recs []results.Record
	for _, agent := range []string{"rules", "baseline", "random"} {
		ep := 0
		for s, size := range []int{10, 40, 120} {
			for q := range 4 {
				recs = append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "semmap", Family: "descriptive", Perturbation: "certainty",
					Agent: agent, Model: models[agent], Episode: ep, MapObjects: size, TopAny: q < hits[agent][s]})
				ep++
			}
		}
	}
	return append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "tabletop", Family: "pick_place", Perturbation: "none", Agent: "rules", Objects: 300})
}

// The plot of a fixed set of records matches the golden image, pixel for
// pixel (goldenPNG; go test ./results/reports -run MapSizePlot -update
// rewrites it).
func TestMapSizePlotGolden(t *testing.T) {
	t.Parallel()
	var got bytes.Buffer
	ok, err := MapSizePlot(&got, plotRecords(), Options{Tracks: testTracks})
	if err != nil || !ok {
		t.Fatalf("MapSizePlot: %v, %v", ok, err)
	}
	goldenPNG(t, "semmap_topany_by_map_size.golden.png", got.Bytes())
}

// The same records, in any order, give the same bytes.
func TestMapSizePlotDeterministic(t *testing.T) {
	t.Parallel()
	var first bytes.Buffer
	if _, err := MapSizePlot(&first, plotRecords(), Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	recs := plotRecords()
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	var again bytes.Buffer
	if _, err := MapSizePlot(&again, recs, Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), again.Bytes()) {
		t.Error("shuffled records gave other bytes")
	}
}

// The series are the pooled Top-Any rates at each size, one per agent in
// the report's order (reference agents first), with no tabletop record in
// them.
func TestMapSizeData(t *testing.T) {
	t.Parallel()
	units, err := groupUnits(listOf(plotRecords()), nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes, series := mapSizeData(units)
	if !slices.Equal(sizes, []int{10, 40, 120}) {
		t.Errorf("sizes %v, want [10 40 120] (the tabletop record's 300 objects left out)", sizes)
	}
	want := map[string][]float64{"random": {0.25, 0, 0}, "rules": {1, 0.75, 0.5}, "baseline": {0.75, 0.5, 0.25}}
	var labels []string
	for _, s := range series {
		labels = append(labels, s.label)
		var ys []float64
		for _, xy := range s.pts {
			ys = append(ys, xy.y)
		}
		if !slices.Equal(ys, want[s.label]) {
			t.Errorf("%s: Top-Any %v, want %v", s.label, ys, want[s.label])
		}
	}
	if !slices.Equal(labels, []string{"random", "rules", "baseline"}) {
		t.Errorf("series %v, want the reference agents first, then the workflows", labels)
	}
}

// One map size is no series: nothing is written, as the report leaves the
// map-size table out too.
func TestMapSizePlotNeedsTwoSizes(t *testing.T) {
	t.Parallel()
	var recs []results.Record
	for _, r := range plotRecords() {
		if r.MapObjects == 40 || r.Track != "semmap" {
			recs = append(recs, r)
		}
	}
	var b bytes.Buffer
	ok, err := MapSizePlot(&b, recs, Options{Tracks: testTracks})
	if err != nil || ok || b.Len() > 0 {
		t.Errorf("one map size: ok %v, err %v, %d bytes written; want false, nil, none", ok, err, b.Len())
	}
}

// The report's map-size section links the plot when told where it is,
// and says nothing of one otherwise.
func TestReportLinksMapSizePlot(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, plot, want string
	}{
		{"a plot was written", "semmap_topany_by_map_size.png", "![Top-Any against map size](semmap_topany_by_map_size.png)"},
		{"no plot", "", ""},
	} {
		var b strings.Builder
		opts := Options{Tracks: testTracks}
		if tc.plot != "" {
			opts.Plots = []PlotLink{{Title: PlotMapSize.Title, Section: PlotMapSize.Section, Link: tc.plot}}
		}
		if err := Write(&b, plotRecords(), opts); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, "## Top-k against map size") {
			t.Fatalf("%s: no map-size section:\n%s", tc.why, out)
		}
		if has := strings.Contains(out, "![Top-Any"); has != (tc.want != "") || !strings.Contains(out, tc.want) {
			t.Errorf("%s: the report's plot link is not %q:\n%s", tc.why, tc.want, out)
		}
	}
}
