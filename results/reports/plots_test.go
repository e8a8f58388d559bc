package reports

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/internal/fma"
	"github.com/ambibench/ambibench/results"
	"gonum.org/v1/plot/cmpimg"
)

// rateRecords is a fixed tabletop run: four agents, four perturbations,
// ten episodes each, with ADA and SR at rates of each agent and
// perturbation's own, and a semmap record the rates plot sees too (it
// reads what the records hold; the track lists which it gets).
func rateRecords() []results.Record {
	var recs []results.Record
	models := map[string]string{"sgcot": "sim", "direct": "sim"}
	for a, agent := range []string{"oracle", "random", "sgcot", "direct"} {
		for p, pert := range []string{"none", "absence", "multiplicity", "underspecified"} {
			for ep := range 10 {
				ada := ep < 10-a*2-p%2  // oracle 10 or 9, random 8 or 7, …
				sr := ep < 10-a*3+p%3-2 // different again
				recs = append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "tabletop", Family: "pick_place", Perturbation: pert,
					Agent: agent, Model: models[agent], Episode: ep, ADA: ada, Success: sr, WallMS: 1})
			}
		}
	}
	return recs
}

// trialRecords is a fixed household run: three reflecting agents, twelve
// games of up to three trials, solved at trials of each agent's own, and
// an agent that played no trials (not in the plot).
func trialRecords() []results.Record {
	solved := map[string][]int{ // the trial that solved each game, 0 for none
		"react":     {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		"reflexion": {1, 1, 1, 2, 2, 3, 0, 0, 0, 0, 0, 0},
		"dyref":     {1, 1, 1, 1, 2, 2, 2, 3, 3, 0, 0, 0},
	}
	var recs []results.Record
	for _, agent := range []string{"react", "reflexion", "dyref"} {
		for g, st := range solved[agent] {
			trials := 3
			if st > 0 {
				trials = st
			}
			recs = append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "household", Family: "put", Perturbation: "none",
				Agent: agent, Model: "sim", Episode: g, Trials: trials, SolvedTrial: st, Success: st > 0})
		}
	}
	return append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "tabletop", Family: "pick_place", Perturbation: "none", Agent: "rules"})
}

// sceneRecords is a fixed scene-size series: two agents on scenes of 6,
// 12 and 24 objects, five episodes each, tokens and time growing with the
// scene (sgcot's tokens twice direct's), and a record of the family's own
// size that the plot leaves out.
func sceneRecords() []results.Record {
	var recs []results.Record
	for a, agent := range []string{"direct", "sgcot"} {
		for _, size := range []int{6, 12, 24} {
			for ep := range 5 {
				in := (a + 1) * (100*size + 40*ep)
				recs = append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "tabletop", Family: "pick_place", Perturbation: "none",
					Agent: agent, Model: "sim", Episode: ep, SceneSize: size, Objects: size, InputTokens: in, OutputTokens: 20 * (ep + 1),
					Calls: 2, WallMS: float64(size*(a+1)) + float64(ep*ep)})
			}
		}
	}
	return append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: 1, Track: "tabletop", Family: "pick_place", Perturbation: "none",
		Agent: "sgcot", Model: "sim", Episode: 9, InputTokens: 99999, WallMS: 5000})
}

// pixelTolerance is cmpimg.EqualApprox's delta for a build that fuses
// multiply-adds: two greys a level or two apart (a level is about 0.004).
const pixelTolerance = 0.01

// goldenPNG compares a plot with testdata/name, pixel for pixel (within
// pixelTolerance where the build fuses multiply-adds), or rewrites it
// under -update.
func goldenPNG(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	compare := cmpimg.Equal
	if fma.Fuses {
		// Where the build fuses multiply-adds (arm64) the rasteriser's
		// anti-aliasing lands a pixel or two of a plot a level of grey
		// apart: within pixelTolerance, far less than a mark moved.
		compare = func(typ string, a, b []byte) (bool, error) { return cmpimg.EqualApprox(typ, a, b, pixelTolerance) }
	}
	same, err := compare("png", got, want)
	if err != nil {
		t.Fatal(err)
	}
	if !same {
		bad := filepath.Join(t.TempDir(), "got.png")
		os.WriteFile(bad, got, 0o644)
		t.Errorf("the plot differs from %s; this run's is %s (run go test -update to accept)", path, bad)
	}
}

var plotCases = []struct {
	plot    Plot
	recs    func() []results.Record
	golden  string
	caption string // a part of the caption
}{
	{PlotRates, rateRecords, "ada_sr_by_perturbation.golden.png", "4 agents, one colour and marker each) with its 95% Wilson interval, 10 episodes per point"},
	{PlotTrials, trialRecords, "success_by_trial.golden.png", "for k = 1 to 3: a line per agent (3 agents) with 95% Wilson intervals, 12 games per agent"},
	{PlotSceneSize, sceneRecords, "cost_by_scene_size.golden.png", "(2 agents), each point a mean with its 95% normal-approximation interval (mean ± 1.96·s/√n), 5 episodes per point"},
	{PlotMapSize, plotRecords, "semmap_topany_by_map_size.golden.png", "(3 agents) with 95% Wilson intervals, 4 queries per point"},
}

// Each plot of fixed records matches its golden image (go test ./results
// -run PlotsGolden -update rewrites them), says what it shows, and gives
// the same bytes for the same records in any order.
func TestPlotsGolden(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("draws every plot along one path: make test runs it; skipped under -short, as its race run passes")
	}
	for _, tc := range plotCases {
		t.Run(tc.plot.File, func(t *testing.T) {
			var got bytes.Buffer
			caption, ok, err := tc.plot.Draw(&got, tc.recs(), Options{})
			if err != nil || !ok {
				t.Fatalf("Draw: %v, %v", ok, err)
			}
			if !strings.Contains(caption, tc.caption) {
				t.Errorf("caption %q lacks %q", caption, tc.caption)
			}
			goldenPNG(t, tc.golden, got.Bytes())
			for seed := range uint64(3) {
				recs := tc.recs()
				rand.New(rand.NewPCG(seed, 7)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
				var again bytes.Buffer
				if _, _, err := tc.plot.Draw(&again, recs, Options{}); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), again.Bytes()) {
					t.Fatalf("shuffled records (seed %d) gave other bytes", seed)
				}
			}
		})
	}
}

// A plot with nothing to show writes nothing.
func TestPlotsWithNothingToShow(t *testing.T) {
	t.Parallel()
	oneSize := filter(sceneRecords(), func(r results.Record) bool { return r.SceneSize != 12 && r.SceneSize != 24 })
	oneTrial := trialRecords()
	for i := range oneTrial {
		if oneTrial[i].Trials > 0 {
			oneTrial[i].Trials, oneTrial[i].SolvedTrial = 1, min(oneTrial[i].SolvedTrial, 1)
		}
	}
	infra := rateRecords()
	for i := range infra {
		infra[i].Outcome = results.OutcomeInfraError
	}
	for _, tc := range []struct {
		why  string
		plot Plot
		recs []results.Record
	}{
		{"rates without records", PlotRates, nil},
		{"rates of infra errors only", PlotRates, infra},
		{"trials without a record of trials", PlotTrials, rateRecords()},
		{"trials of one trial each", PlotTrials, oneTrial},
		{"scene size without scene sizes", PlotSceneSize, rateRecords()},
		{"scene size with one size", PlotSceneSize, oneSize},
		{"map size without semmap records", PlotMapSize, rateRecords()},
	} {
		var b bytes.Buffer
		caption, ok, err := tc.plot.Draw(&b, tc.recs, Options{})
		if err != nil || ok || b.Len() > 0 || caption != "" {
			t.Errorf("%s: ok %v, err %v, caption %q, %d bytes; want nothing", tc.why, ok, err, caption, b.Len())
		}
	}
}

// DrawPlots draws each plot of the tracks present once, over the records
// of the tracks that list it, and the report links each under its
// section, or under "Plots" when the report lacks the section.
func TestDrawPlotsAndLinks(t *testing.T) {
	t.Parallel()
	tracks := map[string]Track{
		"tabletop":  {Sections: testTracks["tabletop"].Sections, Plots: []Plot{PlotRates, PlotSceneSize}},
		"household": {Sections: []Section{SectionRates}, Plots: []Plot{PlotRates, PlotTrials}},
		"semmap":    {Sections: testTracks["semmap"].Sections, Plots: []Plot{PlotMapSize}},
	}
	recs := append(append(sceneRecords(), filter(trialRecords(), func(r results.Record) bool { return r.Track == "household" })...), plotRecords()...)
	recs = filter(recs, func(r results.Record) bool { return !(r.Track == "tabletop" && r.SceneSize == 0) })
	var saved []string
	links, err := DrawPlots(recs, Options{Tracks: tracks}, func(file string, png []byte) (string, error) {
		saved = append(saved, file)
		if len(png) == 0 {
			t.Errorf("%s: no bytes", file)
		}
		return "figs/" + file, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// household first (tracks by name), then semmap, then tabletop.
	want := []string{RatesPlotFile, TrialsPlotFile, MapSizePlotFile, SceneSizePlotFile}
	if strings.Join(saved, " ") != strings.Join(want, " ") {
		t.Errorf("saved %v, want %v", saved, want)
	}
	var b strings.Builder
	if err := Write(&b, recs, Options{Tracks: tracks, Plots: links}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range []struct{ link, after string }{
		{"![ADA and SR by perturbation](figs/" + RatesPlotFile + ")", "## Success rate (SR) by ambiguity type"},
		{"![Top-Any against map size](figs/" + MapSizePlotFile + ")", "## Top-k against map size"},
		{"![Tokens and time per episode against scene size](figs/" + SceneSizePlotFile + ")", "## Scene size"},
		{"![Success by trial](figs/" + TrialsPlotFile + ")", "## Plots"},
	} {
		i, j := strings.Index(out, l.after), strings.Index(out, l.link)
		if i < 0 || j < i || strings.Count(out, l.link) != 1 {
			t.Errorf("the report does not link %s once after %q:\n%s", l.link, l.after, out)
		}
	}
	// The rates plot, listed by two tracks, is drawn once over the
	// records of both: the household's three agents and the tabletop's
	// two.
	if !strings.Contains(out, "ADA (top) and SR (bottom) by perturbation, task families pooled: a point per agent (5 agents") {
		t.Errorf("the rates plot's caption does not count the agents of both tracks:\n%s", out)
	}
}

// With Options.SVG, the built-in plots are drawn as SVG, named .svg,
// their fonts in the file (a page's <img> lends them none), the same
// bytes from the same records; a track's own plot that draws a PNG
// whatever the option keeps its .png name.
func TestDrawPlotsSVG(t *testing.T) {
	t.Parallel()
	own := NewPlot("own.png", "Own", SectionRates.name, func(w io.Writer, recs []results.Record, opts Options) (string, bool, error) {
		return "A PNG.", true, png.Encode(w, image.NewGray(image.Rect(0, 0, 2, 2)))
	})
	tracks := map[string]Track{"tabletop": {Sections: testTracks["tabletop"].Sections, Plots: []Plot{PlotRates, PlotSceneSize, own}}}
	recs := filter(sceneRecords(), func(r results.Record) bool { return r.SceneSize != 0 })
	draw := func() map[string][]byte {
		files := map[string][]byte{}
		if _, err := DrawPlots(recs, Options{Tracks: tracks, SVG: true}, func(file string, data []byte) (string, error) {
			files[file] = data
			return file, nil
		}); err != nil {
			t.Fatal(err)
		}
		return files
	}
	files, again := draw(), draw()
	for _, name := range []string{"ada_sr_by_perturbation.svg", "cost_by_scene_size.svg"} {
		data := files[name]
		if !bytes.Contains(data, []byte("<svg")) || !bytes.Contains(data, []byte("@font-face")) {
			t.Errorf("%s is not an SVG with its fonts: %.120q", name, data)
		}
		if !bytes.Equal(data, again[name]) {
			t.Errorf("%s differs between two draws of the same records", name)
		}
	}
	if _, ok := files["own.png"]; !ok || len(files) != 3 {
		t.Errorf("drew %d files, want the two SVGs and own.png", len(files))
	}
}
