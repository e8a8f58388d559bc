package results

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Validate checks a decoded record. It requires schema == [SchemaVersion];
// non-empty track, family, perturbation and agent; episode, questions, steps
// and tool-call counts >= 0; 0 <= tag_correct <= questions; and a finite,
// non-negative wall_ms. The error names the JSON field, e.g.
// `field "episode": -1 is negative`.
func (r Record) Validate() error {
	if r.Schema != SchemaVersion {
		return fieldErr("schema", "got %d, want %d", r.Schema, SchemaVersion)
	}
	if r.Suite < 1 {
		return fieldErr("suite", "missing or not positive (%d)", r.Suite)
	}
	switch r.Outcome {
	case OutcomeScored:
		if r.ErrorKind != "" {
			return fieldErr("error_kind", "%q on a scored record", r.ErrorKind)
		}
	case OutcomeAgentError:
	case OutcomeInfraError:
		if r.ErrorKind == "" {
			return fieldErr("error_kind", "missing on an infra_error record")
		}
	case "":
		return fieldErr("outcome", "missing (want %s, %s or %s)", OutcomeScored, OutcomeAgentError, OutcomeInfraError)
	default:
		return fieldErr("outcome", "%q is not %s, %s or %s", r.Outcome, OutcomeScored, OutcomeAgentError, OutcomeInfraError)
	}
	for _, f := range [...]struct{ name, value string }{
		{"track", r.Track},
		{"family", r.Family},
		{"perturbation", r.Perturbation},
		{"agent", r.Agent},
	} {
		if f.value == "" {
			return fieldErr(f.name, "missing or empty")
		}
	}
	for _, f := range [...]struct {
		name  string
		value int
	}{
		{"episode", r.Episode},
		{"scene_size", r.SceneSize},
		{"repeat", r.Repeat},
		{"objects", r.Objects},
		{"questions", r.Questions},
		{"tag_correct", r.TagCorrect},
		{"steps", r.Steps},
		{"calls", r.Calls},
		{"attempts", r.Attempts},
		{"input_tokens", r.InputTokens},
		{"output_tokens", r.OutputTokens},
		{"phantom_nodes", r.PhantomNodes},
		{"missed_objects", r.MissedObjects},
		{"wrong_relations", r.WrongRelations},
		{"unmapped_relations", r.UnmappedRelations},
		{"trials", r.Trials},
		{"solved_trial", r.SolvedTrial},
		{"optimal_steps", r.OptimalSteps},
		{"reflections", r.Reflections},
		{"redundant_reflections", r.RedundantReflections},
		{"reflection_tokens", r.ReflectionTokens},
		{"map_objects", r.MapObjects},
		{"hallucinated", r.Hallucinated},
	} {
		if f.value < 0 {
			return fieldErr(f.name, "%d is negative", f.value)
		}
	}
	if r.RedundantReflections > r.Reflections {
		return fieldErr("redundant_reflections", "%d exceeds reflections (%d)", r.RedundantReflections, r.Reflections)
	}
	if err := r.validateReflections(); err != nil {
		return err
	}
	if r.SolvedTrial > r.Trials {
		return fieldErr("solved_trial", "%d exceeds trials (%d)", r.SolvedTrial, r.Trials)
	}
	if err := r.validateTopK(); err != nil {
		return err
	}
	if r.TagCorrect > r.Questions {
		return fieldErr("tag_correct", "%d exceeds questions (%d)", r.TagCorrect, r.Questions)
	}
	for _, tool := range slices.Sorted(maps.Keys(r.ToolCalls)) { // sorted: the same record gives the same error
		if n := r.ToolCalls[tool]; n < 0 {
			return fieldErr("tool_calls", "count %d for %q is negative", n, tool)
		}
	}
	for _, f := range [...]struct {
		name  string
		value float64
	}{
		{"wall_ms", r.WallMS},
		{"latency_p50_ms", r.LatencyP50MS},
		{"latency_p95_ms", r.LatencyP95MS},
	} {
		if math.IsNaN(f.value) || math.IsInf(f.value, 0) || f.value < 0 {
			return fieldErr(f.name, "%v is not a finite non-negative number", f.value)
		}
	}
	return nil
}

// validateTopK checks that semmap hits are cumulative (Top-1 ⇒ Top-2 ⇒
// Top-3 ⇒ Top-Any) and that an episode without a readable answer has no
// answer and no hit.
func (r Record) validateTopK() error {
	for _, f := range [...]struct {
		name, next  string
		hit, weaker bool
	}{
		{"top1", "top2", r.Top1, r.Top2},
		{"top2", "top3", r.Top2, r.Top3},
		{"top3", "top_any", r.Top3, r.TopAny},
	} {
		if f.hit && !f.weaker {
			return fieldErr(f.name, "true while %s is false; hits are cumulative", f.next)
		}
	}
	if !r.NoReadableAnswer {
		return nil
	}
	if len(r.Answer) > 0 {
		return fieldErr("no_readable_answer", "set, but answer holds %d ids", len(r.Answer))
	}
	if r.TopAny {
		return fieldErr("no_readable_answer", "set, but the record scores a hit")
	}
	return nil
}

// validateReflections checks the per-tool and per-reflection breakdowns
// against the totals they break down. Records written before the fields
// existed have neither, and pass.
func (r Record) validateReflections() error {
	for _, tool := range slices.Sorted(maps.Keys(r.ReflectionTools)) {
		if n := r.ReflectionTools[tool]; n < 0 {
			return fieldErr("reflection_tools", "count %d for %q is negative", n, tool)
		}
	}
	if len(r.ReflectionTrials) > 0 {
		if len(r.ReflectionTrials) != r.Reflections {
			return fieldErr("reflection_trials", "%d entries for %d reflections", len(r.ReflectionTrials), r.Reflections)
		}
		for i, t := range r.ReflectionTrials {
			if t < 1 || i > 0 && t < r.ReflectionTrials[i-1] {
				return fieldErr("reflection_trials", "entry %d is %d; want trials from 1, in order", i, t)
			}
		}
	}
	if len(r.ReflectionTokenCounts) == 0 {
		return nil
	}
	if len(r.ReflectionTokenCounts) != r.Reflections {
		return fieldErr("reflection_token_counts", "%d entries for %d reflections", len(r.ReflectionTokenCounts), r.Reflections)
	}
	sum := 0
	for i, n := range r.ReflectionTokenCounts {
		if n < 0 {
			return fieldErr("reflection_token_counts", "entry %d is negative (%d)", i, n)
		}
		if n > math.MaxInt-sum {
			return fieldErr("reflection_token_counts", "entries overflow an int at entry %d", i)
		}
		sum += n
	}
	if sum != r.ReflectionTokens {
		return fieldErr("reflection_token_counts", "entries sum to %d, not reflection_tokens (%d)", sum, r.ReflectionTokens)
	}
	return nil
}

func fieldErr(field, format string, args ...any) error {
	return fmt.Errorf("field %q: %s", field, fmt.Sprintf(format, args...))
}
