package household

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
)

// promptRecorder is a model that keeps the text of every request it
// passes on.
type promptRecorder struct {
	llm.Model
	mu    sync.Mutex
	texts []string
}

func (m *promptRecorder) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	text := req.System
	for _, msg := range req.Messages {
		text += "\n" + msg.Text
	}
	m.mu.Lock()
	m.texts = append(m.texts, text)
	m.mu.Unlock()
	return m.Model.Generate(ctx, req)
}

// The track's --hints and --play-on-repeat reach the workflows through
// the Env: with --hints every prompt of react and react-text states the
// rules of the house, and none does without; with --play-on-repeat react
// plays on where by default a repeated call ends its trial, so a default
// trial is never longer than the same game's with the option (the
// requests are the same up to the stop, and so are the simulated model's
// replies), nor won where that one is lost, and some trial of the split
// is cut short.
func TestHouseholdOptionsReachTheWorkflows(t *testing.T) {
	t.Parallel()
	const rules = "How the house works:"
	for _, agent := range []string{"react", "react-text"} {
		for _, hinted := range []bool{false, true} {
			sim, err := models.Open("sim", nil)
			if err != nil {
				t.Fatal(err)
			}
			m := &promptRecorder{Model: sim}
			tr := New()
			tr.Hints = hinted
			runHousehold(t, bench.Options{Track: tr, Model: m, Agents: []string{agent}, Perturbations: []string{"none"}, Families: []string{"pick_and_place"}, Episodes: 3})
			if len(m.texts) == 0 {
				t.Fatalf("%s: no model call", agent)
			}
			for _, text := range m.texts {
				if strings.Contains(text, rules) != hinted {
					t.Fatalf("%s, --hints %v: a prompt states the rules of the house: %v", agent, hinted, !hinted)
				}
			}
		}
		sim, err := models.Open("sim", nil)
		if err != nil {
			t.Fatal(err)
		}
		stop := runHousehold(t, bench.Options{Model: sim, Agents: []string{agent}, Perturbations: []string{"none"}})
		on := New()
		on.PlayOnRepeat = true
		play := runHousehold(t, bench.Options{Track: on, Model: sim, Agents: []string{agent}, Perturbations: []string{"none"}})
		if len(stop) != len(play) || len(stop) == 0 {
			t.Fatalf("%s: %d and %d records", agent, len(stop), len(play))
		}
		shorter := 0
		for i, r := range stop {
			o := play[i]
			if r.Steps > o.Steps || r.Success && !o.Success {
				t.Errorf("%s %s game %d: %d steps, success %v by default; %d, %v with --play-on-repeat", agent, r.Family, r.Episode, r.Steps, r.Success, o.Steps, o.Success)
			}
			if r.Steps < o.Steps {
				shorter++
			}
		}
		if shorter == 0 {
			t.Errorf("%s: no trial of %d ended on a repeat", agent, len(stop))
		}
		t.Logf("%s: %d of %d trials ended on a repeat", agent, shorter, len(stop))
	}
}
