package alfworld_test

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

var update = flag.Bool("update", false, "rewrite golden files")

// probes are commands played before the expert's plan so that transcripts
// also carry looks, inventories, a thought and failures.
var probes = []string{"look", "inventory", "think: first I look around.", "take nothing 1 from nowhere 1", "help"}

// transcript plays a game from reset: the probes, then the expert's plan,
// and writes every command and observation.
func transcript(t testing.TB, g *alfworld.Game, opts textworld.Options) string {
	t.Helper()
	plan, err := g.Expert(opts.Grammar)
	if err != nil {
		t.Fatalf("%s: %v", g.ID, err)
	}
	e, err := textworld.New(g.House, opts)
	if err != nil {
		t.Fatalf("%s: %v", g.ID, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s  label=%s  answer=%q  goal=%+v\n", g.ID, g.Label, g.Answer, g.Goal)
	b.WriteString(g.Intro(e.Reset()) + "\n")
	for _, cmd := range append(append([]string{}, probes...), plan...) {
		fmt.Fprintf(&b, "> %s\n%s\n", cmd, e.Step(cmd))
	}
	ok, why := g.Goal.Holds(e.State())
	fmt.Fprintf(&b, "# goal holds: %v %s  steps: %d  admissible now: %q\n", ok, why, e.Steps(), e.Admissible())
	return b.String()
}

// The same seed gives byte-identical observations: every evaluation game,
// under every perturbation and in both grammars, built twice afresh and
// played twice through fresh engines.
func TestSameSeedSameObservations(t *testing.T) {
	t.Parallel()
	for _, p := range alfworld.Perturbations() {
		for _, opts := range []textworld.Options{{}, {Grammar: textworld.GrammarV04, Feedback: textworld.FeedbackExplain}} {
			for _, s := range alfworld.EvalGames() {
				if !alfworld.Applies(s.Type, p) {
					continue
				}
				a, b := build(t, s, p), build(t, s, p)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s/%s: two builds differ", s.ID, p)
				}
				if ta, tb := transcript(t, a, opts), transcript(t, b, opts); ta != tb {
					t.Fatalf("%s/%s: two plays differ:\n%s\n----\n%s", s.ID, p, ta, tb)
				}
			}
		}
	}
}

// The digest of every evaluation transcript is fixed, so that another
// process, machine or commit that changes any observation is noticed
// (rewrite with -update when the change is meant).
func TestEvalTranscriptsDigest(t *testing.T) {
	t.Parallel()
	h := sha256.New()
	for _, p := range alfworld.Perturbations() {
		for _, opts := range []textworld.Options{{}, {Grammar: textworld.GrammarV04, Feedback: textworld.FeedbackExplain}} {
			for _, s := range alfworld.EvalGames() {
				if alfworld.Applies(s.Type, p) {
					h.Write([]byte(transcript(t, build(t, s, p), opts)))
				}
			}
		}
	}
	golden(t, "eval_digest.golden", fmt.Sprintf("%x\n", h.Sum(nil)))
}

// One game's whole transcript, to read and to see any change of wording.
func TestTranscriptGolden(t *testing.T) {
	t.Parallel()
	s := alfworld.EvalGames()[55] // a pick_heat_then_place game
	var b strings.Builder
	b.WriteString(transcript(t, build(t, s, ""), textworld.Options{}))
	b.WriteString("\n")
	b.WriteString(transcript(t, build(t, s, "multiplicity"), textworld.Options{Grammar: textworld.GrammarV04, Feedback: textworld.FeedbackExplain}))
	golden(t, "transcript.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what the code gives now (go test -update rewrites it):\n%s", path, got)
	}
}
