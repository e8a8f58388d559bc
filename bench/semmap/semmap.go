package semmap

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"slices"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// Name is the name of the semantic-map track.
const Name = agents.TrackSemmap

// Modes are the input modes, the track's second grid dimension: how the
// map is shown to the agent, with or without its detector's confidence.
// They are a view of the same episode, not a perturbation of it: the
// query, the map and the annotated answer are the same in both.
var Modes = []string{agents.ModeCertainty, agents.ModeUncertainty}

// semmapPair is one episode of the track: a query on a map.
type semmapPair struct {
	m *scenes.SemanticMap
	q mapqueries.Query
}

// semmapPairs lists a dataset's (map, query) pairs of one query type, maps
// outermost, both in the dataset's order: the episodes of a cell.
func semmapPairs(d *mapqueries.Dataset, qtype string) []semmapPair {
	var out []semmapPair
	for _, m := range d.Maps {
		for _, q := range d.Queries {
			if q.Type == qtype {
				if _, ok := d.Truth[m.Name][q.ID]; ok {
					out = append(out, semmapPair{m, q})
				}
			}
		}
	}
	return out
}

// SemmapCells returns the (query type, input mode) cells of a dataset;
// empty filters mean all.
func SemmapCells(d *mapqueries.Dataset, qtypes, modes []string) ([]bench.Cell, error) {
	if d == nil {
		return nil, fmt.Errorf("the semmap track needs a dataset")
	}
	var have []string
	for _, q := range d.Queries {
		if !slices.Contains(have, q.Type) {
			have = append(have, q.Type)
		}
	}
	if len(qtypes) == 0 {
		qtypes = have
	}
	if len(modes) == 0 {
		modes = Modes[:1]
	}
	var cells []bench.Cell
	for _, t := range qtypes {
		if !slices.Contains(have, t) {
			return nil, fmt.Errorf("dataset %s has no queries of type %q (have %v)", d.Name, t, have)
		}
		for _, m := range modes {
			if !slices.Contains(Modes, m) {
				return nil, fmt.Errorf("unknown input mode %q (have %v)", m, Modes)
			}
			cells = append(cells, bench.Cell{Family: t, Perturbation: m})
		}
	}
	return cells, nil
}

// semmapEnv is an agent's view of a semmap episode: the query, the map
// as the input mode shows it, and one answer.
type semmapEnv struct {
	pair     semmapPair
	mode     string
	examples *[3]int
	// near is the dataset's near rule in metres, 0 when it has none.
	near float64
	// attempts are the run's attempts at a JSON answer, 0 for the
	// workflows' own.
	attempts  int
	truth     *agents.Truth
	answered  bool
	answer    agents.AnswerArgs
	steps     int
	toolCalls map[string]int
}

func (e *semmapEnv) Instruction() string  { return e.pair.q.Text }
func (e *semmapEnv) Robot() string        { return "agent" }
func (e *semmapEnv) Partner() string      { return "" }
func (e *semmapEnv) Tools() []agents.Tool { return agents.SemmapTools() }
func (e *semmapEnv) Track() string        { return Name }

// Map is the semantic map, for agents that want it structured.
func (e *semmapEnv) Map() *scenes.SemanticMap { return e.pair.m }

// Mode is the input mode the map is shown in.
func (e *semmapEnv) Mode() string { return e.mode }

// SemmapExamples are the run's example counts (--examples), for the LLM
// workflows; set is false when the run leaves them to the workflows.
func (e *semmapEnv) SemmapExamples() (plan, reflect, refine int, set bool) {
	if e.examples == nil {
		return 0, 0, 0, false
	}
	return e.examples[0], e.examples[1], e.examples[2], true
}

// SemmapNear is the distance within which the dataset's truth counts
// two objects near each other, for the LLM workflows' prompts; ok is
// false when the dataset does not say (mapqueries.Dataset.Near).
func (e *semmapEnv) SemmapNear() (metres float64, ok bool) { return e.near, e.near > 0 }

// SemmapAttempts are the run's attempts at a JSON answer (--attempts),
// for the LLM workflows; set is false when the run leaves them to the
// workflows.
func (e *semmapEnv) SemmapAttempts() (n int, set bool) { return e.attempts, e.attempts > 0 }

func (e *semmapEnv) Call(ctx context.Context, call agents.ToolCall) (agents.Result, error) {
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	if e.answered {
		return agents.Result{Text: "The query is answered.", Ended: true}, nil
	}
	args, err := agents.DecodeArgs(call)
	if err != nil {
		return bench.Refused("%v", err), nil
	}
	e.steps++
	e.toolCalls[call.Name]++
	switch a := args.(type) {
	case *agents.NoArgs:
		if call.Name == agents.ToolGetMap {
			return agents.Result{Text: e.pair.m.RenderJSON(e.mode)}, nil
		}
	case *agents.AnswerArgs:
		e.answered, e.answer = true, *a
		return agents.Result{Text: "Answer recorded.", Ended: true}, nil
	}
	return bench.Refused("%s: not a semmap tool (have get_map, answer)", call.Name), nil
}

type semmapTruthEnv struct{ *semmapEnv }

func (e semmapTruthEnv) Truth() *agents.Truth { return e.truth }

// episode is one semmap job's episode: a query on a map of the dataset.
type episode struct {
	job   bench.Job
	d     *mapqueries.Dataset
	p     semmapPair
	truth []string
	env   *semmapEnv
}

// NewEpisode sets up one semmap job, a query on a map.
func (t *Track) NewEpisode(_ context.Context, job bench.Job, _ bench.Options) (bench.Episode, error) {
	d := t.dataset()
	if d == nil {
		return nil, fmt.Errorf("the semmap track needs a dataset")
	}
	pairs := semmapPairs(d, job.Family)
	if job.Index < 0 || job.Index >= len(pairs) {
		return nil, fmt.Errorf("dataset %s has %d %s queries over its maps; episode %d is out of range", d.Name, len(pairs), job.Family, job.Index)
	}
	p := pairs[job.Index]
	truth := d.Truth[p.m.Name][p.q.ID]
	env := &semmapEnv{pair: p, mode: job.Perturbation, examples: t.Examples, near: d.Near, attempts: t.Attempts, truth: &agents.Truth{Objects: slices.Clone(truth)}, toolCalls: map[string]int{}}
	return &episode{job: job, d: d, p: p, truth: truth, env: env}, nil
}

// Agent seeds the agent by the dataset, the map and the query, and the
// input mode.
func (e *episode) Agent() (agents.Config, []any) {
	return agents.Config{}, []any{Name, e.d.Name, e.p.m.Name, e.p.q.ID, e.job.Perturbation, e.job.Agent}
}

func (e *episode) Env(a agents.Agent, _ bench.NewAgentFunc) (agents.Env, error) {
	if _, reads := a.(agents.TruthReader); reads {
		return semmapTruthEnv{e.env}, nil
	}
	return e.env, nil
}

// Score scores the answer by Top-k.
func (e *episode) Score(rec *results.Record, _ error) {
	d, p, env := e.d, e.p, e.env
	ids := map[string]bool{}
	for _, in := range p.m.Instances {
		ids[in.ID] = true
	}
	rec.Label = "none"
	rec.Instruction = p.q.Text
	rec.Steps = env.steps
	rec.ToolCalls = env.toolCalls
	rec.Dataset = d.Name
	rec.Map = p.m.Name
	rec.MapOrigin = d.Origins[p.m.Name]
	rec.MapObjects = len(p.m.Instances)
	rec.Query = p.q.ID
	rec.Difficulty = p.q.Difficulty
	rec.Answer = slices.Clone(env.answer.RelevantObjects)
	rec.Truth = slices.Clone(e.truth)
	for _, id := range rec.Answer {
		if !ids[id] {
			rec.Hallucinated++
		}
	}
	if env.answered {
		rec.Top1, rec.Top2, rec.Top3, rec.TopAny = results.TopK(rec.Answer, rec.Truth)
	} else {
		// No answer is not the empty answer: a miss even where the
		// truth is empty (docs/metrics.md's Top-k), and the record says so.
		rec.NoReadableAnswer = true
	}
	// Success is the first answer being right: Top-1.
	rec.Success, rec.ADA = rec.Top1, rec.Top1
	if rec.Error == "" && !env.answered {
		rec.Error = "no answer"
	}
}
