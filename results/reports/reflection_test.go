package reports

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// handGames is two agents' household games whose reflection statistics
// are worked out by hand in TestReflectionTableByHand: reflexion reflects
// in free text (no tools), dyref calls tools.
func handGames() []results.Record {
	game := func(agent string, ep, trials, solved, refl, redundant int, counts []int, tools map[string]int) results.Record {
		r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: results.SchemaVersion, Track: "household", Family: "put", Perturbation: "none", Label: "none",
			Agent: agent, Model: "sim", Seed: 1, Episode: ep, Trials: trials, SolvedTrial: solved, Success: solved > 0,
			Reflections: refl, RedundantReflections: redundant, ReflectionTokenCounts: counts, ReflectionTools: tools}
		for _, c := range counts {
			r.ReflectionTokens += c
		}
		return r
	}
	return []results.Record{
		game("reflexion", 0, 1, 1, 0, 0, nil, nil),
		game("reflexion", 1, 3, 3, 2, 1, []int{100, 200}, map[string]int{"reflect": 2}),
		game("reflexion", 2, 5, 0, 4, 4, []int{250, 250, 250, 250}, map[string]int{"reflect": 4}),
		game("reflexion", 3, 2, 2, 1, 0, []int{200}, map[string]int{"reflect": 1}),
		game("dyref", 0, 2, 2, 1, 0, []int{400}, map[string]int{"experience": 1, "lesson": 1, "plan": 1}),
		game("dyref", 1, 1, 1, 0, 0, nil, nil),
		game("dyref", 2, 5, 0, 2, 2, []int{100, 500}, map[string]int{"lesson": 2, "plan": 2}),
		game("dyref", 3, 1, 1, 0, 0, nil, nil),
	}
}

// tableRows returns the body rows of the Markdown table under the section
// title, each split into its cells.
func tableRows(t *testing.T, report, title string) (header []string, rows map[string][]string) {
	t.Helper()
	i := strings.Index(report, "## "+title+"\n")
	if i < 0 {
		t.Fatalf("no section %q in\n%s", title, report)
	}
	rows = map[string][]string{}
	for _, line := range strings.Split(report[i:], "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if header == nil {
			header = cells
			continue
		}
		rows[cells[0]] = cells
	}
	return header, rows
}

// The reflection table's numbers, each worked out by hand from handGames.
// A cell's value is checked exactly; its bootstrap interval must hold it.
func TestReflectionTableByHand(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := Write(&b, handGames(), Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	header, rows := tableRows(t, b.String(), "Reflection")
	wantHeader := []string{"agent", "games", "reflections/game", "redundant/game",
		"experience calls/game", "lesson calls/game", "plan calls/game", "reflect calls/game", // sorted; no agent called key_rules
		"reflection tok/game", "Cost_ref", "Rate_rev", "tok/reflection", "tok/reflection range", "tok/reflection CV"}
	if !slices.Equal(header, wantHeader) {
		t.Fatalf("header\n got %q\nwant %q", header, wantHeader)
	}
	want := map[string][]string{
		// 7 reflections and 5 redundant over 4 games; all 7 are free
		// text; 1,500 tokens over 4 games, and over the 2 games corrected
		// (solved at trials 3 and 2) for Cost_ref; games 1, 2, 3 failed
		// trial 1. Tokens 100, 200, 250×4, 200: mean 1,500/7 = 214.3;
		// population variance (114.29² + 2·14.29² + 4·35.71²)/7 = 2,653.1,
		// so CV = 51.51/214.29 = 0.24.
		"reflexion": {"reflexion", "4", "1.75", "1.25", "0.00", "0.00", "0.00", "1.75", "375", "750", "0.67", "214", "100–250", "0.24"},
		// 3 reflections, 2 redundant; experience 1, lesson 3, plan 3
		// calls; 1,000 tokens, one game corrected of the 2 failed at
		// trial 1. Tokens 400, 100, 500: mean 333.3, variance
		// (66.67² + 233.33² + 166.67²)/3 = 28,888.9, CV = 169.97/333.33
		// = 0.51.
		"dyref": {"dyref", "4", "0.75", "0.50", "0.25", "0.75", "0.75", "0.00", "250", "1,000", "0.50", "333", "100–500", "0.51"},
	}
	for agent, w := range want {
		got := rows[agent]
		if len(got) != len(w) {
			t.Fatalf("%s: %d cells %q, want %d", agent, len(got), got, len(w))
		}
		for i, cell := range got {
			value, interval, _ := strings.Cut(cell, " [")
			if value != w[i] {
				t.Errorf("%s, %s: %q, want %s", agent, header[i], cell, w[i])
			}
			if interval == "" {
				continue
			}
			if header[i] == "Rate_rev" {
				continue // a Wilson interval, tested with Wilson
			}
			// A cell with an interval holds its value within it; token
			// cells join the bounds with a dash, as their digits are
			// grouped with commas.
			sep := ", "
			if strings.Contains(interval, "–") {
				sep = "–"
			}
			lo, hi, _ := strings.Cut(strings.TrimSuffix(interval, "]"), sep)
			num := func(s string) float64 {
				v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
				if err != nil {
					t.Fatalf("%s, %s: cell %q: %v", agent, header[i], cell, err)
				}
				return v
			}
			if x, l, h := num(value), num(lo), num(hi); l > x || x > h {
				t.Errorf("%s, %s: %q does not hold its value", agent, header[i], cell)
			}
		}
	}
	// With 4 games, too many resamples miss every corrected game: no
	// interval for Cost_ref (reflexion: (2/4)^4 = 6% of resamples;
	// dyref: (3/4)^4 = 32%).
	for agent, row := range rows {
		if cost := row[slices.Index(header, "Cost_ref")]; strings.Contains(cost, "[") {
			t.Errorf("%s: Cost_ref %q has an interval though over 5%% of resamples are undefined", agent, cost)
		}
	}
}

// householdRecords is a synthetic household run of four agents: one
// without a model, one that plays a single trial, one that reflects in
// free text after each failure and one that calls reflection tools.
func householdRecords() []results.Record {
	var recs []results.Record
	for ai, agent := range []struct{ name, model string }{{"oracle", ""}, {"react", "sim"}, {"reflexion", "sim"}, {"dyref", "sim"}} {
		for _, family := range []string{"put", "clean"} {
			for _, p := range []string{"none", "absence"} {
				for ep := range 8 {
					v := (ep*7 + ai*3 + len(p) + len(family)) % 10
					r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: results.SchemaVersion, Track: "household", Family: family, Perturbation: p, Label: p,
						Agent: agent.name, Model: agent.model, Seed: 1, Episode: ep, Steps: 6 + v, OptimalSteps: 6, Trials: 1}
					switch {
					case agent.name == "oracle" || v < 6:
						r.SolvedTrial = 1
					case agent.name == "react":
					case v%3 != 0 || agent.name == "dyref":
						r.SolvedTrial = 2 + v%4
					}
					if agent.name == "reflexion" || agent.name == "dyref" {
						if r.SolvedTrial == 0 {
							r.Trials = 5
						} else {
							r.Trials = r.SolvedTrial
						}
						r.Reflections = r.Trials - 1
						r.RedundantReflections = r.Reflections
						if r.SolvedTrial > 1 {
							r.RedundantReflections--
						}
						r.ReflectionTools = map[string]int{}
						for i := range r.Reflections {
							tokens := 200 + 10*v + 5*i
							if agent.name == "dyref" {
								tools := []string{"lesson", "plan"}
								if i == 0 && v%2 == 0 {
									tools = []string{"key_rules", "experience", "lesson", "plan"}
								}
								for _, tool := range tools {
									r.ReflectionTools[tool]++
								}
								tokens = 80 * len(tools)
							} else {
								r.ReflectionTools[results.FreeTextReflectTool]++
							}
							r.ReflectionTokenCounts = append(r.ReflectionTokenCounts, tokens)
							r.ReflectionTrials = append(r.ReflectionTrials, i+1)
							r.ReflectionTokens += tokens
						}
					}
					r.Success = r.SolvedTrial > 0
					r.ADA = r.Success
					recs = append(recs, r)
				}
			}
		}
	}
	return recs
}

// Household pairs compare with reflexion on SR@k by default, tabletop pairs
// with sgcot on SR, and --baseline still names any agent.
func TestReportHouseholdPairs(t *testing.T) {
	t.Parallel()
	hh := householdRecords()
	for _, r := range hh {
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: %v", r.Key(), err)
		}
	}
	mixed := append(reportRecords(), hh...)
	tests := []struct {
		why     string
		recs    []results.Record
		opts    Options
		present []string
		absent  []string
	}{
		{"household: the model agents against reflexion, on SR@5", hh, Options{Tracks: testTracks},
			[]string{"| dyref | reflexion | SR@5 | 32 |", "| react | reflexion | SR@5 | 32 |", "| dyref | reflexion | ADA |", "SR@k, k the most trials any game played"},
			[]string{"| oracle | reflexion", "| SR |"}},
		{"a named baseline still applies, and its pairs are labelled SR@k too", hh, Options{Tracks: testTracks, Baseline: "react"},
			[]string{"| oracle | react | SR@5 |", "| reflexion | react | SR@5 |", "| dyref | react | SR@5 |"},
			[]string{"| dyref | reflexion |"}},
		{"mixed tracks: each track its own baseline, never across tracks", mixed, Options{Tracks: testTracks},
			[]string{"| direct (sim) | sgcot | SR |", "| dyref | reflexion | SR@5 |"},
			[]string{"| reflexion | sgcot", "| sgcot | reflexion", "| dyref | sgcot"}},
		{"an agent on both tracks is compared track by track", mixed, Options{Tracks: testTracks, Baseline: "oracle"},
			[]string{"| direct (sim) | oracle | SR |", "| dyref | oracle | SR@5 |"},
			nil},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := Write(&b, tt.recs, tt.opts); err != nil {
			t.Fatalf("%s: %v", tt.why, err)
		}
		out := b.String()
		paired := out[strings.Index(out, "## Paired"):]
		for _, s := range tt.present {
			if !strings.Contains(paired, s) {
				t.Errorf("%s: paired comparisons lack %q\n%s", tt.why, s, paired)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(paired, s) {
				t.Errorf("%s: paired comparisons have %q", tt.why, s)
			}
		}
	}
	// The tabletop part of a mixed report is the tabletop report's.
	var tab, mix strings.Builder
	if err := Write(&tab, reportRecords(), Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&mix, mixed, Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	for _, row := range strings.Split(tab.String()[strings.Index(tab.String(), "## Paired"):], "\n") {
		if strings.HasPrefix(row, "| ") && !strings.Contains(mix.String(), row) {
			t.Errorf("mixed report lost the tabletop pair row %q", row)
		}
	}
}

// The household sections depend on the records as a set.
func TestReportHouseholdIgnoresRecordOrder(t *testing.T) {
	t.Parallel()
	recs := householdRecords()
	var want strings.Builder
	if err := Write(&want, recs, Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		var got strings.Builder
		if err := Write(&got, recs, Options{Tracks: testTracks}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatal("shuffled household records give another report")
		}
	}
}

func BenchmarkSummarizeReflections(b *testing.B) {
	recs := householdRecords()
	for len(recs) < 650 {
		recs = append(recs, recs...)
	}
	for b.Loop() {
		stats.SummarizeReflections(recs)
	}
}
