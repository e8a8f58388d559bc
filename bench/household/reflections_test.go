package household

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
)

// reflector is an agent that only reports the reflections it is given.
type reflector []agents.ReflectionRecord

func (reflector) Run(context.Context, agents.Env) error    { return nil }
func (r reflector) Reflections() []agents.ReflectionRecord { return r }

// scoreReflections breaks the reflections down by tool and by reflection:
// DyRef's named tools one count per call, a free-text reflection one call
// of "reflect", the tokens one entry per reflection in order.
func TestHouseholdScoreReflections(t *testing.T) {
	t.Parallel()
	tests := []struct {
		why        string
		solved     int // trial that solved the game, 0 if none
		refl       reflector
		tools      map[string]int
		counts     []int
		redundant  int
		noBreakout bool // an agent that does not reflect leaves the fields empty
	}{
		{"tool calls add up across reflections; the one before the solving trial is useful", 3,
			reflector{
				{Trial: 1, Tokens: 300, Tools: []string{"key_rules", "lesson", "plan"}, PlanChanged: true},
				{Trial: 2, Tokens: 120, Tools: []string{"lesson", "plan"}, PlanChanged: true},
			},
			map[string]int{"key_rules": 1, "lesson": 2, "plan": 2}, []int{300, 120}, 1, false},
		{"a free-text reflection is one reflect call", 0,
			reflector{{Trial: 1, Tokens: 500}, {Trial: 2, Tokens: 450}},
			map[string]int{results.FreeTextReflectTool: 2}, []int{500, 450}, 2, false},
		{"a tool called twice in one reflection counts twice", 2,
			reflector{{Trial: 1, Tokens: 90, Tools: []string{"lesson", "lesson"}, PlanChanged: true}},
			map[string]int{"lesson": 2}, []int{90}, 0, false},
		{"no reflections, no breakdown", 1, reflector{}, nil, nil, 0, true},
	}
	for _, tt := range tests {
		rec := results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: results.SchemaVersion, Track: Name, Family: "put", Perturbation: "none", Agent: "x",
			Trials: 5, SolvedTrial: tt.solved, Success: tt.solved > 0}
		scoreReflections(&rec, tt.refl)
		if !maps.Equal(rec.ReflectionTools, tt.tools) || !slices.Equal(rec.ReflectionTokenCounts, tt.counts) {
			t.Errorf("%s: tools %v, counts %v; want %v, %v", tt.why, rec.ReflectionTools, rec.ReflectionTokenCounts, tt.tools, tt.counts)
		}
		if tt.noBreakout && (rec.ReflectionTools != nil || rec.ReflectionTokenCounts != nil) {
			t.Errorf("%s: empty breakdown should be absent from the record, got %v, %v", tt.why, rec.ReflectionTools, rec.ReflectionTokenCounts)
		}
		if rec.RedundantReflections != tt.redundant {
			t.Errorf("%s: %d redundant, want %d", tt.why, rec.RedundantReflections, tt.redundant)
		}
		if err := rec.Validate(); err != nil {
			t.Errorf("%s: the record does not validate: %v", tt.why, err)
		}
	}
}

func TestHouseholdMetricUnit(t *testing.T) {
	t.Parallel()
	if got := metricUnit("key rules\t2"); got != "key_rules_2" {
		t.Errorf("metricUnit = %q, want spaces replaced", got)
	}
}
