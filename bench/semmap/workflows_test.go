package semmap

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// semmapTable runs every semmap agent with a model over the whole
// built-in dataset in both input modes and returns the records.
func semmapTable(t *testing.T, p simmodel.Profile, name string) []results.Record {
	t.Helper()
	opts := bench.Options{Track: &Track{Dataset: mapqueries.Builtin(1), Modes: Modes}, Seed: 1, Model: simmodel.New(p, name), Episodes: 1 << 20}
	jobs, err := bench.Jobs(opts)
	if err != nil {
		t.Fatal(err)
	}
	var recs []results.Record
	for _, j := range jobs {
		r, err := runEpisode(context.Background(), j, opts)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// semmapRates are the Top-1/2/3/Any rates of each (agent, mode, query
// type), and of each (agent, mode) with the type ""; and the records with
// an error per agent and per "agent/mode".
func semmapRates(recs []results.Record) (cells map[[3]string][4]float64, errs map[string]int) {
	type acc struct{ n, t1, t2, t3, ta int }
	sums := map[[3]string]*acc{}
	errs = map[string]int{}
	for _, r := range recs {
		for _, k := range [][3]string{{r.Agent, r.Perturbation, r.Family}, {r.Agent, r.Perturbation, ""}} {
			a := sums[k]
			if a == nil {
				a = &acc{}
				sums[k] = a
			}
			a.n++
			for i, hit := range []bool{r.Top1, r.Top2, r.Top3, r.TopAny} {
				if hit {
					*[]*int{&a.t1, &a.t2, &a.t3, &a.ta}[i]++
				}
			}
		}
		if r.Error != "" {
			errs[r.Agent]++
			errs[r.Agent+"/"+r.Perturbation]++
		}
	}
	cells = map[[3]string][4]float64{}
	for k, a := range sums {
		n := float64(a.n)
		cells[k] = [4]float64{float64(a.t1) / n, float64(a.t2) / n, float64(a.t3) / n, float64(a.ta) / n}
	}
	return cells, errs
}

func semmapReport(recs []results.Record) string {
	cells, errs := semmapRates(recs)
	var b strings.Builder
	b.WriteString("| agent | mode | descriptive | affordance | negation | all (Top-1/2/3/Any) | errors |\n|---|---|---|---|---|---|---|\n")
	for _, a := range agents.NamesFor(Name) {
		for _, m := range Modes {
			all := cells[[3]string{a, m, ""}]
			fmt.Fprintf(&b, "| %s | %s | %.2f | %.2f | %.2f | %.2f / %.2f / %.2f / %.2f | %d |\n", a, m,
				cells[[3]string{a, m, mapqueries.TypeDescriptive}][0], cells[[3]string{a, m, mapqueries.TypeAffordance}][0], cells[[3]string{a, m, mapqueries.TypeNegation}][0],
				all[0], all[1], all[2], all[3], errs[a+"/"+m])
		}
	}
	return b.String()
}

// With sim:perfect every agent but random scores Top-1 = 1.0 in both
// inputs on the built-in dataset, without an error: the truth is what a
// perfect reader of the map answers, and each workflow only passes that
// reading on (reflection has nothing to fix, the ensemble's answers
// agree).
func TestSemmapWorkflowsBuiltinPerfect(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs every semmap agent over the built-in dataset")
	}
	recs := semmapTable(t, simmodel.Perfect, "sim:perfect")
	t.Logf("sim:perfect, Top-1 by query type:\n%s", semmapReport(recs))
	cells, errs := semmapRates(recs)
	for _, a := range agents.NamesFor(Name) {
		if errs[a] > 0 {
			t.Errorf("%s: %d records with an error", a, errs[a])
		}
		if a == "random" {
			continue
		}
		for _, m := range Modes {
			if got := cells[[3]string{a, m, ""}]; got != [4]float64{1, 1, 1, 1} {
				t.Errorf("%s, %s: Top-1/2/3/Any %.3f, want all 1", a, m, got)
			}
		}
	}
}

// With the default sim profile, a reflection removes every id it finds
// missing from the map, so the reflection workflows answer fewer
// hallucinated ids than the baseline, whose answers hold some.
func TestSemmapWorkflowsBuiltinSim(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs every semmap agent over the built-in dataset")
	}
	recs := semmapTable(t, simmodel.Default, "sim")
	t.Logf("sim, Top-1 by query type:\n%s", semmapReport(recs))
	halluc := map[string]int{}
	for _, r := range recs {
		halluc[r.Agent] += r.Hallucinated
	}
	t.Logf("hallucinated ids answered: %v", halluc)
	if halluc["baseline"] == 0 {
		t.Fatalf("the baseline answered no hallucinated id; the test proves nothing")
	}
	for _, a := range []string{"self-reflect", "self-reflect-no-memory", "multi-agent-reflect"} {
		if halluc[a] >= halluc["baseline"] {
			t.Errorf("%s answered %d hallucinated ids, the baseline %d", a, halluc[a], halluc["baseline"])
		}
	}
}

// With every reply malformed no model-driven agent has an answer to
// score, so Top-k is 0 at every k in every cell, the pairs whose truth is
// empty included (they used to score the empty list as a hit), and each
// record says there was no readable answer.
func TestSemmapMalformedIsAMissEverywhere(t *testing.T) {
	t.Parallel()
	p, err := simmodel.ParseProfile("malformed=1")
	if err != nil {
		t.Fatal(err)
	}
	opts := bench.Options{Track: &Track{Dataset: mapqueries.Builtin(1), Modes: Modes}, Seed: 1, Model: simmodel.New(p, "sim:malformed=1")}
	for _, a := range agents.NamesFor(Name) {
		if info, _ := agents.Lookup(a); info.UsesModel {
			opts.Agents = append(opts.Agents, a)
		}
	}
	jobs, err := bench.Jobs(opts)
	if err != nil {
		t.Fatal(err)
	}
	emptyTruth := 0
	for _, j := range jobs {
		r, err := runEpisode(context.Background(), j, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Truth) == 0 {
			emptyTruth++
		}
		if r.Top1 || r.Top2 || r.Top3 || r.TopAny || !r.NoReadableAnswer || r.Error == "" || len(r.Answer) > 0 {
			t.Errorf("%s %s/%s %s: top %v/%v/%v/%v, no readable answer %v, answer %v, error %q; want a miss with no answer and the reason",
				r.Agent, r.Map, r.Query, r.Perturbation, r.Top1, r.Top2, r.Top3, r.TopAny, r.NoReadableAnswer, r.Answer, r.Error)
		}
		if err := r.Validate(); err != nil {
			t.Errorf("%s %s/%s: %v", r.Agent, r.Map, r.Query, err)
		}
	}
	if emptyTruth == 0 {
		t.Fatal("no pair has an empty truth; the test proves nothing about them")
	}
	t.Logf("%d records over %d agents, %d with an empty truth", len(jobs), len(opts.Agents), emptyTruth)
}
