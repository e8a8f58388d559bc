package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
)

// lookTest is an agent of these tests alone: it shows the model its
// robot's camera image with the instruction, once, and ends the episode.
// The workflows that see the table arrive with issue 29; until then it is
// what carries an image through a run.
const lookTest = "look-test"

func init() {
	agents.RegisterWorkflow(lookTest, "shows the model its camera image once (tests only)", func(cfg agents.Config) (agents.Agent, error) {
		return &lookAgent{model: cfg.Model}, nil
	})
	agents.SetShowsImages(lookTest, "")
}

type lookAgent struct{ model llm.Model }

func (a *lookAgent) Run(ctx context.Context, env agents.Env) error {
	cam, ok := env.(agents.Camera)
	if !ok {
		return nil
	}
	img, _, err := cam.View()
	if err != nil {
		return err
	}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: env.Instruction(), Images: []llm.Image{img}}}}
	if _, err := a.model.Generate(ctx, req); err != nil {
		return err
	}
	_, err = env.Call(ctx, agents.ToolCall{Name: agents.ToolDone})
	return err
}

// TestImagesRecordedAndReplayed records a run whose requests carry the
// robot's image through serve-sim into cassettes, with transcripts, and
// replays it with no key and no server: the records are the same bytes
// (timings aside), the cassette directory and the run directory hold each
// distinct image once, and a damaged image stops the replay's episode as
// an infrastructure error naming the file.
func TestImagesRecordedAndReplayed(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	tapes := filepath.Join(t.TempDir(), "cassettes")
	grid := []string{"--agents", lookTest, "--perception", "image", "--tasks", "pick_place", "--perturbations", "none,multiplicity", "--episodes", "4", "--quiet"}
	t.Setenv("OPENAI_API_KEY", "sk-images-test")
	t.Setenv("OPENAI_BASE_URL", startServeSim(t, "sim"))
	recorded := filepath.Join(t.TempDir(), "recorded")
	if _, errOut, err := runCLI(t, append([]string{"run", "--model", "record:" + tapes + "=openai:sim?context=1", "--transcripts", "--out", recorded}, grid...)...); err != nil {
		t.Fatalf("record: %v\n%s", err, errOut)
	}
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	replayed := filepath.Join(t.TempDir(), "replayed")
	if _, errOut, err := runCLI(t, append([]string{"run", "--model", "replay:" + tapes, "--out", replayed}, grid...)...); err != nil {
		t.Fatalf("replay: %v\n%s", err, errOut)
	}
	a, b := recordsBytes(t, recorded), recordsBytes(t, replayed)
	if !bytes.Equal(a, b) {
		t.Errorf("replayed records differ from the recorded ones:\n%s\n---\n%s", a, b)
	}
	if !strings.Contains(string(a), `"calls":1`) || strings.Contains(string(a), `"outcome":"infra`) {
		t.Fatalf("the records do not show one scored call an episode:\n%s", a)
	}
	// 2 cells × 4 episodes, one image each, all distinct tables.
	for _, dir := range []string{tapes, recorded} {
		if n := countFiles(t, filepath.Join(dir, imagefile.Dir)); n != 8 {
			t.Errorf("%s holds %d images, want 8 (one a distinct table)", dir, n)
		}
	}
	if n := strings.Count(string(readFile(t, filepath.Join(recorded, "transcripts.jsonl"))), `"digest":`); n != 8 {
		t.Errorf("the transcripts name %d images, want 8", n)
	}

	// show prints where each call showed an image and writes it out: the
	// image the model was shown is the robot's opening view.
	keys, _, err := runCLI(t, "show", recorded)
	if err != nil {
		t.Fatal(err)
	}
	key, _, _ := strings.Cut(keys, "\t")
	shown := filepath.Join(t.TempDir(), "shown")
	out, _, err := runCLI(t, "show", "--images", shown, recorded, key)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "[user shows an image] image/png, 640×480") || !strings.Contains(out, "Image shown at call 1") {
		t.Errorf("show does not show the call's image:\n%s", out)
	}
	files, _ := os.ReadDir(shown)
	var opening, sent []byte
	for _, f := range files {
		data := readFile(t, filepath.Join(shown, f.Name()))
		switch {
		case strings.HasPrefix(f.Name(), "call1-"):
			sent = data
		case strings.HasSuffix(f.Name(), "-robot1.png"):
			opening = data
		}
	}
	if sent == nil || !bytes.Equal(sent, opening) {
		t.Errorf("the image shown at call 1 (%d bytes) is not the opening view (%d bytes); files %v", len(sent), len(opening), files)
	}

	// Damage one image: its episode is an infrastructure error that names
	// the file, and the rest replay.
	entries, err := os.ReadDir(filepath.Join(tapes, imagefile.Dir))
	if err != nil || len(entries) == 0 {
		t.Fatal(err)
	}
	damaged := filepath.Join(tapes, imagefile.Dir, entries[0].Name())
	if err := os.WriteFile(damaged, []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "again")
	_, errOut, err := runCLI(t, append([]string{"run", "--model", "replay:" + tapes, "--out", again, "--log-level", "warn"}, grid...)...)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitInfra {
		t.Fatalf("replay with a damaged image: %v, want exit %d\n%s", err, exitInfra, errOut)
	}
	recs := string(readFile(t, filepath.Join(again, recordsFileName)))
	if strings.Count(recs, `"outcome":"infra_error"`) != 1 || !strings.Contains(recs, entries[0].Name()) {
		t.Errorf("want one infrastructure error naming %s:\n%s", entries[0].Name(), recs)
	}
}

// TestImagesRefusedByATextModel: an agent that shows images is refused,
// before any episode, with a model whose spec says images=0, naming both.
func TestImagesRefusedByATextModel(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "run", "--agents", lookTest, "--perception", "image", "--model", "openai:text-only?images=0", "--episodes", "1", "--quiet")
	if err == nil || !strings.Contains(err.Error(), lookTest) || !strings.Contains(err.Error(), "openai:text-only?images=0") || !strings.Contains(err.Error(), "takes none") {
		t.Errorf("run of an image agent on a text model: %v, want a refusal naming both", err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSeeingAgainstServeSim plays SG-CoT perceiving through the camera
// image over real HTTP (the images in the request bodies as data URLs)
// against serve-sim, and in process: the records are the same.
func TestSeeingAgainstServeSim(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	t.Setenv("OPENAI_API_KEY", "sk-seeing-test")
	t.Setenv("OPENAI_BASE_URL", startServeSim(t, "sim"))
	grid := []string{"--agents", "sgcot,sgcot-no-edges", "--perception", "image", "--tasks", "pick_place,handover",
		"--perturbations", "none,multiplicity,partial_observability,scene_graph_noise", "--episodes", "3", "--quiet"}
	remoteDir, localDir := t.TempDir(), t.TempDir()
	if _, errOut, err := runCLI(t, append([]string{"run", "--model", "openai:sim?context=1", "--out", remoteDir}, grid...)...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if _, errOut, err := runCLI(t, append([]string{"run", "--model", "sim", "--out", localDir}, grid...)...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	remote, local := readRecords(t, remoteDir), readRecords(t, localDir)
	for _, r := range remote {
		if r.Perception != "image" || r.Calls < 2 {
			t.Fatalf("%s: perception %q, %d calls; want image and the detection and scene-graph calls", r.PlainKey(), r.Perception, r.Calls)
		}
	}
	sameUpToModel(t, remote, local)
}
