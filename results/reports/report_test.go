package reports

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// reportRecords is a synthetic run that gives every section of the report
// something to show: reference and workflow agents, one agent under two
// models, SG-CoT variants, partial observability in two families, a
// perturbation outside the default order, and a scene-size series.
func reportRecords() []results.Record {
	type agent struct {
		name, model string
		skill       int // successes per 10 episodes
		calls       int
	}
	agents := []agent{
		{"oracle", "", 10, 0},
		{"random", "", 1, 0},
		{"direct", "sim", 8, 2},
		{"direct", "sim:weak", 5, 3},
		{"sgcot", "sim", 9, 6},
		{"sgcot-no-edges", "sim", 7, 5},
	}
	var recs []results.Record
	add := func(a agent, ai int, family, perturbation string, size, ep int) {
		r := validRecord()
		r.Agent, r.Model, r.Family, r.Perturbation, r.Label = a.name, a.model, family, perturbation, perturbation
		r.Seed, r.Episode, r.SceneSize = 1, ep, size
		r.Objects = 6 + size/2
		// Outcomes vary with the episode, agent and cell, so that pairs
		// disagree both ways.
		v := (ep*7 + ai*3 + len(perturbation) + len(family)) % 10
		skill := a.skill
		if skill < 10 { // the oracle stays perfect; the others find some cells harder
			skill -= len(perturbation) % 3
		}
		r.Success = v < skill
		r.ADA = v < skill+1
		r.Asked, r.Questions, r.TagCorrect, r.Tag = r.ADA, 0, 0, ""
		r.Steps = 3 + v%4
		r.WallMS = float64(10+v) / 4
		if a.calls > 0 {
			r.Calls = a.calls + v%2
			r.InputTokens = r.Calls * (900 + 40*size + 10*v)
			r.OutputTokens = r.Calls * 15
			r.LatencyP50MS = float64(20+v) / 8
			r.LatencyP95MS = r.LatencyP50MS * 2
		}
		if perturbation == "partial_observability" {
			r.OutOfView = []string{"object", "destination"}[ep%2]
			if r.ADA {
				r.Messages = []results.Message{{From: "robot1", To: "robot2", Text: "where is it?", Reply: "here"}}
			}
		}
		recs = append(recs, r)
	}
	for ai, a := range agents {
		for _, family := range []string{"pick_place", "handover"} {
			for _, p := range []string{"fog", "partial_observability", "absence", "none"} {
				for ep := range 10 {
					add(a, ai, family, p, 0, ep)
				}
			}
		}
		for _, p := range []string{"fog", "absence", "none"} {
			for ep := range 4 {
				add(a, ai, "spatial", p, 0, ep)
			}
		}
		for _, size := range []int{24, 12} {
			for ep := range 6 {
				add(a, ai, "pick_place", "none", size, ep)
			}
		}
	}
	return recs
}

func TestReportGolden(t *testing.T) {
	t.Parallel()
	full := reportRecords()
	var reference []results.Record
	for _, r := range full {
		if r.Model == "" && r.SceneSize == 0 && r.Perturbation != "partial_observability" {
			reference = append(reference, r)
		}
	}
	tests := []struct {
		name string // why the row exists; also the golden file's name
		recs []results.Record
		opts Options
	}{
		{"full", full, Options{Tracks: testTracks}},
		{"all_pairs", full, Options{Tracks: testTracks, AllPairs: true, Agents: []string{"sgcot", "oracle"}}},
		{"baseline", full, Options{Tracks: testTracks, Baseline: "oracle"}},
		{"reference_only", reference, Options{Tracks: testTracks}},                                      // no models: no ablation, no scene sizes, no pairs
		{"household", householdRecords(), Options{Tracks: testTracks}},                                  // success by trial, reflection, pairs against reflexion on SR@5
		{"semmap", semmapRecords(), Options{Tracks: testTracks}},                                        // Top-k by mode with the pooled row, map size by mode, over-reflection by mode
		{"household_cut_dyref", dyrefCutRecords(), Options{Tracks: testTracks, Cut: testDyRefCut.Name}}, // the household report with DyRef's cut: clear games, pick-two left out, figures at trial 4
		{"empty", nil, Options{Tracks: testTracks}},
		// Table 2 at 5 episodes per category: pick_place gives 3, spatial
		// (which has 4) 2; handover (two robots) and fog (noise) none.
		{"table2_n", full, Options{Tracks: testTracks, CategoryEpisodes: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := Write(&b, tt.recs, tt.opts); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "report_"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, b.String(), want)
			}
		})
	}
}

// Sections appear exactly when they have data; the checks do not depend on
// the golden files being right.
func TestReportSections(t *testing.T) {
	t.Parallel()
	full := reportRecords()
	keep := func(f func(results.Record) bool) []results.Record { return filter(full, f) }
	tests := []struct {
		why     string
		recs    []results.Record
		present []string
		absent  []string
	}{
		{"everything", full,
			[]string{"## Ambiguity detection", "## Success rate", "## Cost per episode", "## Two robots: partial observability", "## SG-CoT ablations", "## Scene size", "## Paired comparisons",
				"| direct (sim) |", "| direct (sim:weak) |", "| 24 |", "| default |",
				"## Single robot: ADA and SR by ambiguity category", "| agent | metric | none | absence | all |", // Table 2: no handover, no fog
				"| oracle | destination out of view |", "| oracle | object out of view |", // Table 4 split by case
				"## Robustness", "| agent | metric | none | fog |",
				"| agent | none | absence | partial_observability | all |"}, // the noise perturbation is out of the rate tables and their "all"
			nil},
		{"no partial observability", keep(func(r results.Record) bool { return r.Perturbation != "partial_observability" }),
			[]string{"## SG-CoT ablations"}, []string{"## Two robots", "partial_observability |"}},
		{"no noise perturbation: no robustness table", keep(func(r results.Record) bool { return r.Perturbation != "fog" }),
			[]string{"## Single robot"}, []string{"## Robustness", "noise perturbations ("}},
		{"one SG-CoT agent is no ablation", keep(func(r results.Record) bool { return r.Agent != "sgcot-no-edges" }),
			[]string{"## Paired comparisons"}, []string{"## SG-CoT ablations"}},
		{"no scene sizes", keep(func(r results.Record) bool { return r.SceneSize == 0 }),
			nil, []string{"## Scene size"}},
		{"no sgcot, no default baseline", keep(func(r results.Record) bool { return r.Agent != "sgcot" }),
			nil, []string{"## Paired comparisons", "## SG-CoT ablations"}},
		{"one model per agent: plain labels", keep(func(r results.Record) bool { return r.Model != "sim:weak" }),
			[]string{"| direct |"}, []string{"(sim)"}},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := Write(&b, tt.recs, Options{Tracks: testTracks}); err != nil {
			t.Fatalf("%s: %v", tt.why, err)
		}
		for _, s := range tt.present {
			if !strings.Contains(b.String(), s) {
				t.Errorf("%s: report lacks %q", tt.why, s)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(b.String(), s) {
				t.Errorf("%s: report has %q", tt.why, s)
			}
		}
	}
}

// The report depends on the records as a set: concurrent runs and resumed
// runs write them in different orders.
func TestReportIgnoresRecordOrder(t *testing.T) {
	t.Parallel()
	recs := reportRecords()
	var want strings.Builder
	if err := Write(&want, recs, Options{Tracks: testTracks, AllPairs: true}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		var got strings.Builder
		if err := Write(&got, recs, Options{Tracks: testTracks, AllPairs: true}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatal("shuffled records give another report")
		}
	}
}

func TestReportErrors(t *testing.T) {
	t.Parallel()
	full := reportRecords()
	tests := []struct {
		why  string
		recs []results.Record
		opts Options
		want string
	}{
		{"an episode twice would count twice", append(full[:3:3], full[2]), Options{Tracks: testTracks}, `appears twice`},
		{"a named baseline must exist; the error lists the agents", full, Options{Tracks: testTracks, Baseline: "clara"}, `baseline agent "clara" has no records (agents: oracle, random, direct (sim), direct (sim:weak)`},
		{"a baseline under two models is ambiguous", full, Options{Tracks: testTracks, Baseline: "direct"}, `name one as "direct (sim)"`},
		{"DyRef's cut of tabletop records would be left out without a word", full, Options{Tracks: testTracks, Cut: testDyRefCut.Name}, `cut "dyref" is of records of the household track, and these records are of the tabletop track`},
		{"a cut no track shows is unknown", full, Options{Tracks: map[string]Track{}, Cut: testDyRefCut.Name}, `cut "dyref": unknown (have none)`},
		{"an unknown cut is refused", full, Options{Tracks: testTracks, Cut: "paper"}, `cut "paper": unknown (have dyref)`},
	}
	for _, tt := range tests {
		err := Write(&strings.Builder{}, tt.recs, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.why, err, tt.want)
		}
	}
	// One shard's records say so under the title.
	var b strings.Builder
	if err := Write(&b, full, Options{Tracks: testTracks, Shard: &results.RunShard{Index: 2, Count: 4}}); err != nil || !strings.Contains(b.String(), "Shard 2 of 4 of a run: these tables are of its part of the grid alone") {
		t.Errorf("report of a shard (err %v) does not say it is one:\n%.400s", err, b.String())
	}
	// A baseline named with its model is fine.
	if err := Write(&strings.Builder{}, full, Options{Tracks: testTracks, Baseline: "direct (sim:weak)"}); err != nil {
		t.Errorf("baseline with model: %v", err)
	}
}

func TestFormatting(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		why       string
		got, want string
	}{
		{"no separator below a thousand", grouped(999), "999"},
		{"separator at a thousand", grouped(1000), "1,000"},
		{"every three digits", grouped(1234567), "1,234,567"},
		{"sign stays in front", grouped(-1234), "-1,234"},
		{"tokens round to whole numbers", tokens(2501, 2), "1,251"},
		{"tokens without calls", tokens(0, 0), "—"},
		{"p-value with three decimals", pValue(0.021484375), "0.021"},
		{"small p-value in scientific notation", pValue(0.00012), "1.2e-04"},
		{"p = 1", pValue(1), "1.000"},
		{"a rate without episodes", rateCell(stats.Rate{}), "—"},
		{"a rate with its interval and n", rateCell(stats.Rate{K: 81, N: 100}), "0.81 [0.72, 0.87] (n=100)"},
		{"mean of nothing", mean(nil), "—"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.why, tt.got, tt.want)
		}
	}
}

// Tag accuracy pools questions, not episodes: 2 right of 3 under absence,
// 1 of 1 under multiplicity; a column without questions shows —.
func TestReportTagAccuracy(t *testing.T) {
	t.Parallel()
	a := rec("sgcot", "pick_place", "absence", true, true)
	a.Questions, a.TagCorrect = 3, 2
	m := rec("sgcot", "pick_place", "multiplicity", true, true)
	m.Questions, m.TagCorrect = 1, 1
	n := rec("sgcot", "pick_place", "none", true, true)
	var b strings.Builder
	if err := Write(&b, []results.Record{a, m, n}, Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	want := "| sgcot | — | 0.67 [0.21, 0.94] (n=3) | 1.00 [0.21, 1.00] (n=1) | 0.75 [0.30, 0.95] (n=4) |"
	if !strings.Contains(b.String(), "## Tag accuracy by ambiguity type") || !strings.Contains(b.String(), want) {
		t.Errorf("report has no row %q:\n%s", want, b.String())
	}
}

// Table 2's sample takes whole episodes (every repeat of each) from each
// family, and leaves the records it was handed in their order, which the
// later sections read.
func TestCategorySampleTakesEpisodesInPlace(t *testing.T) {
	t.Parallel()
	var recs []results.Record
	for _, ep := range []int{0, 1, 10, 11, 2, 3} { // key order, as stored
		for rep := range 2 {
			recs = append(recs, results.Record{Family: "pick_place", Episode: ep, Repeat: rep})
		}
	}
	before := slices.Clone(recs)
	rp := &reporter{categoryEpisodes: 3}
	got := rp.categorySample(listOf(recs), []string{"pick_place"})
	if !slices.EqualFunc(recs, before, func(a, b results.Record) bool { return a.Episode == b.Episode && a.Repeat == b.Repeat }) {
		t.Errorf("the sample reordered the records it was given")
	}
	var eps []int
	for r := range got.all() {
		eps = append(eps, r.Episode)
	}
	if want := []int{0, 0, 1, 1, 2, 2}; !slices.Equal(eps, want) {
		t.Errorf("sampled episodes %v, want %v (three episodes, both repeats of each)", eps, want)
	}
}
