package semmap

import (
	"context"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	agsm "github.com/ambibench/ambibench/agents/semmap"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// The attempts a run without --attempts makes are the workflows' own,
// agents/semmap.PaperAttempts; Settings reads the flag against
// paperAttempts, so the two must be one.
func TestPaperAttemptsAreTheDefault(t *testing.T) {
	t.Parallel()
	if agsm.PaperAttempts != paperAttempts {
		t.Errorf("paperAttempts %d, agents/semmap.PaperAttempts %d", paperAttempts, agsm.PaperAttempts)
	}
}

// --attempts at the default is the default; other attempts are another
// protocol, named in run.json's settings.
func TestAttemptsSettings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		attempts int
		want     string
	}{{0, ""}, {paperAttempts, ""}, {1, "1"}, {3, "3"}} {
		tr := New()
		tr.Attempts = c.attempts
		s, err := tr.Settings()
		if err != nil {
			t.Fatal(err)
		}
		if got := s["attempts"]; got != c.want {
			t.Errorf("--attempts %d: settings say %q, want %q", c.attempts, got, c.want)
		}
	}
}

// textModel keeps the text of every request and its count per episode.
type textModel struct {
	llm.Model
	mu    sync.Mutex
	texts []string
}

func (m *textModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	m.mu.Lock()
	m.texts = append(m.texts, req.Messages[len(req.Messages)-1].Text)
	m.mu.Unlock()
	return m.Model.Generate(ctx, req)
}

// The dataset's near rule reaches the prompts, and its absence too; a
// map's origin reaches its records; the run's --attempts reaches the
// workflows.
func TestDatasetReachesTheEpisode(t *testing.T) {
	t.Parallel()
	small := func(near float64, origins bool) *mapqueries.Dataset {
		d := mapqueries.Builtin(1)
		d.Maps, d.Near = d.Maps[:2], near
		keep := map[string]bool{d.Maps[0].Name: true, d.Maps[1].Name: true}
		maps.DeleteFunc(d.Truth, func(k string, _ map[string][]string) bool { return !keep[k] })
		if origins {
			d.Origins = map[string]string{d.Maps[0].Name: "ScanNet", d.Maps[1].Name: "SceneNN"}
		}
		return d
	}
	for _, c := range []struct {
		why      string
		d        *mapqueries.Dataset
		near     string // the sentence's distance, "" for none
		attempts int
	}{
		{"the built-in rule", small(1.5, false), "1.5", 0},
		{"another rule, with origins", small(0.8, true), "0.8", 0},
		{"no rule", small(0, true), "", 0},
		{"one attempt", small(1.5, false), "1.5", 1},
	} {
		p, err := simmodel.ParseProfile("malformed=1")
		if err != nil {
			t.Fatal(err)
		}
		model := &textModel{Model: simmodel.New(p, "sim:malformed=1")}
		// Account counts the calls in the episode's tally, as the command's
		// model chain does.
		opts := bench.Options{Track: &Track{Dataset: c.d, Attempts: c.attempts}, Seed: 1, Model: middleware.Account(model), Agents: []string{"baseline"}, Families: []string{mapqueries.TypeDescriptive}, Episodes: 2}
		jobs, err := bench.Jobs(opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			model.texts = nil
			r, err := runEpisode(context.Background(), j, opts)
			if err != nil {
				t.Fatal(err)
			}
			if want := c.d.Origins[r.Map]; r.MapOrigin != want {
				t.Errorf("%s: %s: origin %q, want %q", c.why, r.Map, r.MapOrigin, want)
			}
			wantCalls := paperAttempts
			if c.attempts > 0 {
				wantCalls = c.attempts
			}
			if len(model.texts) != wantCalls || r.Calls != wantCalls || !r.NoReadableAnswer {
				t.Errorf("%s: %d calls (%d recorded), no readable answer %v; want %d calls, every reply malformed", c.why, len(model.texts), r.Calls, r.NoReadableAnswer, wantCalls)
			}
			for _, text := range model.texts {
				text = strings.ReplaceAll(text, "\n", " ")
				if said := strings.Contains(text, "are near each other"); said != (c.near != "") || (said && !strings.Contains(text, "within "+c.near+" m of each other")) {
					t.Errorf("%s: the prompt says near %v, want %q", c.why, said, c.near)
				}
			}
		}
	}
}
