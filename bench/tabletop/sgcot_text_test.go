package tabletop

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// sgcot-text is SG-CoT in its paper's text protocol; on the perfect
// simulated model it reaches every episode's outcome that sgcot reaches
// with tool calls, in every cell of the default grid: the prompt, the
// parser, the results messages and the partner's answer all carry what
// the tool calls carry.
func TestSGCoTTextMatchesSGCoTOnPerfectModel(t *testing.T) {
	t.Parallel()
	m, err := models.Open("sim:perfect", nil)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := bench.Run(context.Background(), bench.Options{Track: New(), Seed: 1, Model: m,
		Agents: []string{"sgcot", "sgcot-text"}, Episodes: 8, Concurrency: 2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	type cell struct{ family, perturbation string }
	byEpisode := map[string]map[string]results.Record{}
	for _, r := range recs {
		k := fmt.Sprintf("%s/%s/%d", r.Family, r.Perturbation, r.Episode)
		if byEpisode[k] == nil {
			byEpisode[k] = map[string]results.Record{}
		}
		byEpisode[k][r.Agent] = r
	}
	cells := map[cell]bool{}
	for k, pair := range byEpisode {
		tool, text := pair["sgcot"], pair["sgcot-text"]
		cells[cell{text.Family, text.Perturbation}] = true
		if text.Outcome != results.OutcomeScored || text.Success != tool.Success || text.Asked != tool.Asked {
			t.Errorf("%s: sgcot-text %s success %v asked %v, sgcot %s success %v asked %v (error %q)",
				k, text.Outcome, text.Success, text.Asked, tool.Outcome, tool.Success, tool.Asked, text.Error)
		}
	}
	if len(cells) < 10 {
		t.Errorf("%d cells played, want the whole default grid", len(cells))
	}
}

// callLog is a model that keeps every call with its reply.
type callLog struct {
	llm.Model
	mu    sync.Mutex
	calls []loggedCall
}

type loggedCall struct {
	req   llm.Request
	reply llm.Reply
}

func (l *callLog) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	reply, err := l.Model.Generate(ctx, req)
	l.mu.Lock()
	l.calls = append(l.calls, loggedCall{req, reply})
	l.mu.Unlock()
	return reply, err
}

// The transcript of one two-robot episode of sgcot-text on the perfect
// simulated model, as the model reads it: every call's system prompt and
// messages (images by their digest) and its reply. The golden file
// (testdata/sgcot_text_transcript.txt; -update rewrites it) shows the
// protocol as a reviewer reads it: the robot finds the block is not in
// its view, asks the other robot, which retrieves, hands the block over
// with a pick_and_place request and says so; then the final decisions.
func TestSGCoTTextTranscriptGolden(t *testing.T) {
	m, err := models.Open("sim:perfect", nil)
	if err != nil {
		t.Fatal(err)
	}
	log := &callLog{Model: m}
	rec, err := runEpisode(context.Background(), bench.Job{Cell: bench.Cell{Family: "pick_place", Perturbation: "partial_observability"},
		Agent: "sgcot-text", Track: "tabletop"}, bench.Options{Seed: 1, Model: log})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Success {
		t.Fatalf("the golden episode failed: %+v", rec)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# sgcot-text, pick_place/partial_observability, episode 0, seed 1, sim:perfect: success %v, %d calls\n", rec.Success, len(log.calls))
	// Each conversation grows by the reply and its results: a call shows
	// what its conversation gained since its last call.
	seen := map[string]int{}
	systems := map[string]int{}
	for i, c := range log.calls {
		cc := c.req.Context
		if cc == nil || cc.Format != llm.FormatSGCoTText {
			fmt.Fprintf(&b, "\n## call %d: %s (%s), not in the protocol\n", i+1, cc.Role, cc.Format)
			continue
		}
		fmt.Fprintf(&b, "\n## call %d: %s by %s, offering %s\n", i+1, cc.Role, cc.Robot, strings.Join(cc.Requests, ", "))
		if c.req.System != "" {
			if first, ok := systems[c.req.System]; ok {
				fmt.Fprintf(&b, "\n### system: as in call %d\n", first)
			} else {
				systems[c.req.System] = i + 1
				fmt.Fprintf(&b, "\n### system\n%s\n", c.req.System)
			}
		}
		conv := cc.Role + " " + cc.Robot
		from, ok := seen[conv]
		if ok {
			from++ // the last reply, shown with its call
		}
		seen[conv] = len(c.req.Messages)
		for _, msg := range c.req.Messages[min(from, len(c.req.Messages)):] {
			fmt.Fprintf(&b, "\n### %s\n%s\n", msg.Role, msg.Text)
			for _, img := range msg.Images {
				fmt.Fprintf(&b, "[image %s, %dx%d]\n", img.Digest, img.Width, img.Height)
			}
		}
		fmt.Fprintf(&b, "\n### reply\n%s\n", c.reply.Text)
	}
	path := filepath.Join("testdata", "sgcot_text_transcript.txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("the transcript differs from %s (run with -update and review the diff):\n%s", path, b.String())
	}
}
