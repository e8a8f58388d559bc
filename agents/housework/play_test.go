package housework_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// outcome is one game played by the planner.
type outcome struct {
	won    bool
	steps  int
	asks   int
	reason string // why it lost
	state  housework.State
}

// play runs the planner on a game through the engine, with a user who
// answers a question tagged with the game's label by the game's answer and
// ends the game on any other tag, as the harness does.
func play(t testing.TB, g *alfworld.Game, opts textworld.Options, noPriors bool) outcome {
	return playWith(t, g, opts, housework.State{NoPriors: noPriors})
}

// playWith plays from a state that sets the planner's options (priors,
// slips).
func playWith(t testing.TB, g *alfworld.Game, opts textworld.Options, s housework.State) outcome {
	t.Helper()
	e, err := textworld.New(g.House, opts)
	if err != nil {
		t.Fatalf("%s: %v", g.ID, err)
	}
	s.Instruction, s.Opening = g.Instruction, g.Intro(e.Reset())
	o := outcome{}
	for o.steps < g.StepLimit {
		d := housework.Decide(s)
		switch d.Kind {
		case housework.Act:
			obs := e.Step(d.Command)
			o.steps++
			s.Turns = append(s.Turns, housework.Turn{Command: d.Command, Observation: obs})
			if g.Goal.Satisfied(e.State()) {
				o.won, o.state = true, s
				return o
			}
		case housework.Ask:
			o.asks++
			if d.Tag != g.Label || o.asks > 3 {
				o.reason, o.state = fmt.Sprintf("asked %s (label %s): %s", d.Tag, g.Label, d.Question), s
				return o
			}
			s.Turns = append(s.Turns, housework.Turn{Tag: d.Tag, Question: d.Question, Answer: g.Answer})
		default:
			o.reason, o.state = "stuck: "+d.Why, s
			return o
		}
	}
	o.reason, o.state = "step limit", s
	return o
}

// TestPlayEvalGames plays every evaluation game, clear and under each
// perturbation, and reports the success rate per perturbation.
func TestPlayEvalGames(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays 600 games")
	}
	want := map[string]float64{
		tasks.LabelNone: 0.9, tasks.LabelAbsence: 0.7, tasks.LabelMultiplicity: 0.85,
		tasks.LabelUnderspecified: 0.9, tasks.LabelPartialObservability: 0.85,
	}
	for _, cfg := range []struct {
		name     string
		opts     textworld.Options
		noPriors bool
		want     map[string]float64
	}{
		{"v0.3", textworld.Options{}, false, want},
		{"v0.4 explained", textworld.Options{Grammar: textworld.GrammarV04, Feedback: textworld.FeedbackExplain}, false, want},
		// Searching in listing order costs steps, which absence games,
		// searched through before asking, feel the most.
		{"no priors", textworld.Options{}, true, map[string]float64{tasks.LabelNone: 0.9, tasks.LabelAbsence: 0.6, tasks.LabelMultiplicity: 0.8,
			tasks.LabelUnderspecified: 0.9, tasks.LabelPartialObservability: 0.8}},
	} {
		t.Run(cfg.name, func(t *testing.T) { playAll(t, cfg.opts, cfg.noPriors, cfg.want) })
	}
}

func playAll(t *testing.T, opts textworld.Options, noPriors bool, want map[string]float64) {
	for _, pert := range alfworld.Perturbations() {
		won, n, steps, optimal, wrongAbsence := 0, 0, 0, 0, 0
		byType := map[string][2]int{}
		var failures []string
		for _, spec := range alfworld.EvalGames() {
			if !alfworld.Applies(spec.Type, pert) {
				continue
			}
			g, err := spec.Build(pert)
			if err != nil {
				t.Fatal(err)
			}
			o := play(t, g, opts, noPriors)
			n++
			c := byType[g.Type]
			c[1]++
			if o.won {
				won++
				c[0]++
				steps += o.steps
				plan, err := g.Expert(opts.Grammar)
				if err != nil {
					t.Fatal(err)
				}
				optimal += len(plan)
			} else {
				failures = append(failures, fmt.Sprintf("%s: %s", g.ID, o.reason))
			}
			byType[g.Type] = c
			if pert == tasks.LabelPartialObservability && strings.Contains(o.reason, "asked absence") {
				wrongAbsence++
			}
		}
		sr := float64(won) / float64(n)
		t.Logf("%-22s SR %.3f (%d/%d), %.1f steps per win (the expert, knowing all: %.1f); wins by type %v",
			pert, sr, won, n, float64(steps)/float64(max(won, 1)), float64(optimal)/float64(max(won, 1)), byType)
		for _, f := range failures {
			t.Logf("  %s", f)
		}
		if sr < want[pert] {
			t.Errorf("%s: SR %.3f, want at least %.2f", pert, sr, want[pert])
		}
		if wrongAbsence > 0 {
			t.Errorf("%s: told the user %d times that a hidden object was absent", pert, wrongAbsence)
		}
	}
}

// TestDiagnoseSlips plays games with the planner's slips on and checks that
// the diagnosis of each lost game names the slip, in words a reflection
// reader can match.
func TestDiagnoseSlips(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why   string
		typ   string
		pert  string
		slips housework.Slips
		kind  string
	}{
		{"a heat game played without heating", alfworld.TypePickHeatThenPlace, tasks.LabelNone, housework.Slips{SkipTreatment: true}, housework.MistakeSkip},
		{"a clean game played without cleaning", alfworld.TypePickCleanThenPlace, tasks.LabelNone, housework.Slips{SkipTreatment: true}, housework.MistakeSkip},
		{"the X among several taken without asking", alfworld.TypePickAndPlace, tasks.LabelMultiplicity, housework.Slips{IgnoreMultiplicity: true}, housework.MistakeMultiplicity},
		{"another X than the user meant", alfworld.TypePickCoolThenPlace, tasks.LabelMultiplicity, housework.Slips{WrongInstance: true}, housework.MistakeInstance},
	} {
		lost, named := 0, 0
		for _, spec := range alfworld.EvalGames() {
			if spec.Type != tc.typ {
				continue
			}
			g, err := spec.Build(tc.pert)
			if err != nil {
				t.Fatal(err)
			}
			o := playWith(t, g, textworld.Options{}, housework.State{Slips: tc.slips})
			if o.won {
				continue
			}
			lost++
			ms := housework.Diagnose(o.state)
			for _, m := range ms {
				if m.Kind == tc.kind && housework.Mentioned([]string{m.Text}, m.Keys()) && strings.Contains(m.Text, g.Goal.Kind) {
					named++
					break
				}
			}
			if named < lost {
				t.Errorf("%s: %s lost, diagnosed as %+v; want a %s mistake naming the %s", tc.why, g.ID, ms, tc.kind, g.Goal.Kind)
			}
		}
		if lost < 3 {
			t.Errorf("%s: only %d games lost to the slip; the test checks too little", tc.why, lost)
		}
		t.Logf("%s: %d games lost, %d diagnosed", tc.why, lost, named)
	}
}

func TestDiagnoseLoopAndSteps(t *testing.T) {
	t.Parallel()
	g, err := alfworld.EvalGames()[30].Build(tasks.LabelNone)
	if err != nil {
		t.Fatal(err)
	}
	e, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := housework.State{Instruction: g.Instruction, Opening: g.Intro(e.Reset())}
	first := housework.Decide(s).Command
	for range 3 {
		s.Turns = append(s.Turns, housework.Turn{Command: first, Observation: e.Step(first)})
	}
	ms := housework.Diagnose(s)
	if len(ms) != 1 || ms[0].Kind != housework.MistakeLoop || ms[0].Subject != first || !strings.Contains(ms[0].Text, first) {
		t.Errorf("a command sent three times: diagnosed %+v; want one loop naming %q", ms, first)
	}
	ms = housework.Diagnose(housework.State{Instruction: g.Instruction, Opening: s.Opening, Turns: s.Turns[:1]})
	if len(ms) != 1 || ms[0].Kind != housework.MistakeSteps || !strings.Contains(ms[0].Text, g.Goal.Kind) {
		t.Errorf("a trial cut short with no mistake: diagnosed %+v; want running out of steps on the %s", ms, g.Goal.Kind)
	}
}

// BenchmarkDecide decides once on a long trial: an absence game searched
// through, about thirty commands and a question to replay.
func BenchmarkDecide(b *testing.B) {
	g, err := alfworld.EvalGames()[100].Build(tasks.LabelAbsence)
	if err != nil {
		b.Fatal(err)
	}
	o := play(b, g, textworld.Options{}, false)
	s := o.state
	s.Turns = s.Turns[:len(s.Turns)-1]
	b.ReportMetric(float64(len(s.Turns)), "turns")
	b.ReportAllocs()
	for b.Loop() {
		housework.Decide(s)
	}
}
