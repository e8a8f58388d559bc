package housework_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// A Planner told each turn as it is played decides as Decide does over the
// whole trial, at every step: in every eighth evaluation game under each
// perturbation it applies to, with the worlds' two wordings, without
// priors, and with every slip the simulated model makes. Decide, which
// takes each step from the state it kept at the step before, decides as
// folding the whole trial again does.
func TestPlannerIsDecide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		opts textworld.Options
		s    housework.State
	}{
		{"the default wording", textworld.Options{}, housework.State{}},
		{"v0.4 with explained feedback: other observations to read", textworld.Options{Grammar: textworld.GrammarV04, Feedback: textworld.FeedbackExplain}, housework.State{}},
		{"no priors: longer searches", textworld.Options{}, housework.State{NoPriors: true}},
		{"every slip: the paths a slipping model takes", textworld.Options{}, housework.State{Slips: housework.Slips{SkipTreatment: true, IgnoreMultiplicity: true, WrongInstance: true}}},
	} {
		decisions := 0
		for i, spec := range alfworld.EvalGames() {
			if i%8 != 0 {
				continue
			}
			for _, pert := range alfworld.Perturbations() {
				if !alfworld.Applies(spec.Type, pert) {
					continue
				}
				g, err := spec.Build(pert)
				if err != nil {
					t.Fatal(err)
				}
				e, err := textworld.New(g.House, tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				s := tc.s
				s.Instruction, s.Opening = g.Instruction, g.Intro(e.Reset())
				pl := housework.NewPlanner(s)
				for len(s.Turns) < g.StepLimit && !g.Goal.Satisfied(e.State()) {
					want := housework.Decide(s)
					if got := pl.Decide(); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: %s (%s) after %d turns: the planner decides %+v, Decide %+v", tc.why, g.ID, pert, len(s.Turns), got, want)
					}
					// Decide starts from the state it kept a turn ago.
					if fresh := housework.DecideUnremembered(s); !reflect.DeepEqual(fresh, want) {
						t.Fatalf("%s: %s (%s) after %d turns: Decide gives %+v, folding every turn gives %+v", tc.why, g.ID, pert, len(s.Turns), want, fresh)
					}
					// A branch in which the command decided fails, as the
					// simulated model's own guesses branch off a trial, leaves
					// the state kept for the trial as it was.
					failing := housework.Turn{Command: "examine nothing 9", Observation: "Nothing happens."}
					if want.Kind == housework.Act {
						failing.Command = want.Command
					}
					branch := append(s.Turns[:len(s.Turns):len(s.Turns)], failing)
					housework.Decide(housework.State{Instruction: s.Instruction, Opening: s.Opening, Turns: branch, NoPriors: s.NoPriors, Slips: s.Slips})
					if again := housework.Decide(s); !reflect.DeepEqual(again, want) {
						t.Fatalf("%s: %s (%s) after %d turns: Decide gives %+v after a branch, %+v before it", tc.why, g.ID, pert, len(s.Turns), again, want)
					}
					decisions++
					var tu housework.Turn
					switch {
					case want.Kind == housework.Act:
						tu = housework.Turn{Command: want.Command, Observation: e.Step(want.Command)}
					case want.Kind == housework.Ask && want.Tag == g.Label:
						tu = housework.Turn{Tag: want.Tag, Question: want.Question, Answer: g.Answer}
					}
					if tu == (housework.Turn{}) {
						break // stuck, or a question the user would end the game on
					}
					s.Turns = append(s.Turns, tu)
					pl.Add(tu)
				}
			}
		}
		if decisions < 500 {
			t.Errorf("%s: %d decisions compared; the games should give more", tc.why, decisions)
		}
	}
}

// BenchmarkPlanner times one decision of the rules agent with 5 or 45
// turns already played: folding the whole trial again (how=replay, as the
// rules agent and Decide did before), Decide with the state of the turn
// before kept (how=decide, as the simulated model decides at each call of
// a trial) or a Planner taking the last turn (how=planner). The turns are a wanderer's through a real game (go to,
// open and close each receptacle in turn), which never ends it.
//
//	go test -run '^$' -bench Planner -benchtime 2000x -count 6 ./agents/housework/ | go tool benchstat -col /step -
func BenchmarkPlanner(b *testing.B) {
	g, err := alfworld.EvalGames()[0].Build(tasks.LabelNone)
	if err != nil {
		b.Fatal(err)
	}
	e, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := housework.State{Instruction: g.Instruction, Opening: g.Intro(e.Reset())}
	var round []string
	for _, c := range e.Admissible() {
		if r, ok := strings.CutPrefix(c, "go to "); ok {
			round = append(round, c, "open "+r, "close "+r)
		}
	}
	for i := 0; len(s.Turns) < 45; i++ {
		cmd := round[i%len(round)]
		s.Turns = append(s.Turns, housework.Turn{Command: cmd, Observation: e.Step(cmd)})
	}
	for _, step := range []int{5, 45} {
		played := s
		played.Turns = s.Turns[:step]
		b.Run(fmt.Sprintf("how=replay/step=%d", step), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				housework.DecideUnremembered(played)
			}
		})
		before := played
		before.Turns = played.Turns[:step-1]
		// lastTurn times the decision after the last turn alone: each op
		// readies it untimed (ready returns the timed part).
		lastTurn := func(how string, ready func() func()) {
			b.Run(fmt.Sprintf("how=%s/step=%d", how, step), func(b *testing.B) {
				b.ReportAllocs()
				b.StopTimer()
				b.ResetTimer()
				for range b.N {
					decide := ready()
					b.StartTimer()
					decide()
					b.StopTimer()
				}
			})
		}
		lastTurn("decide", func() func() {
			housework.ForgetFolds()
			housework.Decide(before)
			return func() { housework.Decide(played) }
		})
		lastTurn("planner", func() func() {
			pl := housework.NewPlanner(before)
			return func() {
				pl.Add(played.Turns[step-1])
				pl.Decide()
			}
		})
	}
}
