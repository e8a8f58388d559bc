package reports

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// An episode lost to the infrastructure is in no rate and no count of the
// rates, but every table that leaves it out says so.
func TestInfraErrorsAreNotScored(t *testing.T) {
	t.Parallel()
	rec := func(ep int, outcome, kind string, success bool) results.Record {
		return results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: outcome, ErrorKind: kind, Track: "tabletop", Family: "pick_place",
			Perturbation: "none", Label: "none", Agent: "direct", Model: "openai:x", Episode: ep, Success: success, ADA: success,
			Error: map[bool]string{true: "", false: "boom"}[outcome == results.OutcomeScored]}
	}
	recs := []results.Record{
		rec(0, results.OutcomeScored, "", true),
		rec(1, results.OutcomeAgentError, "", false), // the agent's failure: counted, as a failure
		rec(2, results.OutcomeInfraError, "timeout", false),
		rec(3, results.OutcomeInfraError, "timeout", false),
		rec(4, results.OutcomeInfraError, "server error", false),
	}
	cells := stats.Aggregate(recs, stats.AggregateOptions{})
	if len(cells) != 1 {
		t.Fatalf("%d cells, want 1", len(cells))
	}
	if c := cells[0]; c.N != 2 || c.SR != (stats.Rate{K: 1, N: 2}) || c.ADA != (stats.Rate{K: 1, N: 2}) || c.Errors != 1 {
		t.Errorf("cell %+v: want n=2, SR 1/2, ADA 1/2, one agent error", c)
	}
	losses := InfraLosses(recs)
	want := []InfraLoss{
		{Agent: "direct", Model: "openai:x", Kind: "server error", Episodes: 1, Example: "boom"},
		{Agent: "direct", Model: "openai:x", Kind: "timeout", Episodes: 2, Example: "boom"},
	}
	if len(losses) != len(want) || losses[0] != want[0] || losses[1] != want[1] {
		t.Errorf("losses %+v, want %+v", losses, want)
	}
	var b strings.Builder
	if err := InfraMarkdown(&b, recs); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Not scored: 3 episodes", "direct (openai:x): 2 episodes, timeout", "direct (openai:x): 1 episode, server error"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("infra paragraph lacks %q:\n%s", s, b.String())
		}
	}
	b.Reset()
	if err := Write(&b, recs, Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Not scored: 3 episodes") || !strings.Contains(b.String(), "(n=2)") {
		t.Errorf("report does not leave the infra errors out of its rates, or does not say so:\n%s", b.String())
	}
	b.Reset()
	if err := InfraMarkdown(&b, recs[:2]); err != nil || b.Len() != 0 {
		t.Errorf("without infra errors the paragraph is %q (%v), want nothing", b.String(), err)
	}
}

// A report never pools two suite versions: their episodes differ.
func TestReportRefusesMixedSuites(t *testing.T) {
	t.Parallel()
	a := results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "f", Perturbation: "none", Agent: "rules"}
	b := a
	b.Suite, b.Episode = 2, 1
	var out strings.Builder
	err := Write(&out, []results.Record{a, b}, Options{Tracks: testTracks})
	if err == nil || !strings.Contains(err.Error(), "suite versions 1 and 2") {
		t.Errorf("got %v, want a refusal naming suite versions 1 and 2", err)
	}
}

// Every public summary of records leaves an infrastructure failure out,
// whoever calls it: a record that was never scored is no outcome.
func TestSummariesLeaveInfraErrorsOut(t *testing.T) {
	t.Parallel()
	rec := func(agent string, ep int, outcome string, success bool) results.Record {
		r := results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: outcome, Track: "household", Family: "put", Perturbation: "none",
			Label: "none", Agent: agent, Episode: ep, Trials: 1, Success: success}
		if success {
			r.SolvedTrial = 1
		}
		if outcome == results.OutcomeInfraError {
			r.ErrorKind, r.Error = "timeout", "timeout: no reply"
		}
		return r
	}
	a := []results.Record{rec("a", 0, results.OutcomeScored, true), rec("a", 1, results.OutcomeInfraError, false), rec("a", 2, results.OutcomeScored, false)}
	b := []results.Record{rec("b", 0, results.OutcomeScored, false), rec("b", 1, results.OutcomeScored, true), rec("b", 2, results.OutcomeInfraError, false)}
	if p := stats.McNemar(a, b, func(r results.Record) bool { return r.Success }); p.Pairs != 1 {
		t.Errorf("McNemar paired %d episodes, want 1 (the others have an infra error on one side)", p.Pairs)
	}
	if tr := stats.SumTrials(a, 1); tr.Games != 2 || tr.SRAt[0] != (stats.Rate{K: 1, N: 2}) {
		t.Errorf("SumTrials: %d games, SR@1 %v; want 2 games, 1/2", tr.Games, tr.SRAt[0])
	}
	if s := stats.SummarizeReflections(a); s.Games != 2 {
		t.Errorf("SummarizeReflections counts %d games, want 2", s.Games)
	}
}
