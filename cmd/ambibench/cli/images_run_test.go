package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/imagefile"
)

// TestImagesRecordedAndReplayed records a run whose requests carry the
// robot's image (SG-CoT perceiving through it) through serve-sim into
// cassettes, with transcripts, and
// replays it with no key and no server: the records are the same bytes
// (timings aside), the cassette directory and the run directory hold each
// distinct image once, and a damaged image stops the replay's episode as
// an infrastructure error naming the file.
func TestImagesRecordedAndReplayed(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	tapes := filepath.Join(t.TempDir(), "cassettes")
	grid := []string{"--agents", "sgcot", "--perception", "image", "--tasks", "pick_place", "--perturbations", "none,multiplicity", "--episodes", "4", "--quiet"}
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
	if !strings.Contains(string(a), `"perception":"image"`) || strings.Contains(string(a), `"outcome":"infra`) {
		t.Fatalf("the records are not of scored episodes perceived through the image:\n%s", a)
	}
	// 2 cells × 4 episodes, one table each, shown at the detection call
	// and again at the scene-graph call: 16 images sent, 8 kept.
	for _, dir := range []string{tapes, recorded} {
		if n := countFiles(t, filepath.Join(dir, imagefile.Dir)); n != 8 {
			t.Errorf("%s holds %d images, want 8 (one a distinct table)", dir, n)
		}
	}
	if n := strings.Count(string(readFile(t, filepath.Join(recorded, "transcripts.jsonl"))), `"digest":`); n < 16 {
		t.Errorf("the transcripts name %d images, want at least 16 (two calls an episode show the table)", n)
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
// before any episode, with a model whose spec says images=0, naming both
// and what runs it without images.
func TestImagesRefusedByATextModel(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "run", "--agents", "sgcot", "--perception", "image", "--model", "openai:text-only?images=0", "--episodes", "1", "--quiet")
	for _, want := range []string{`"sgcot"`, "openai:text-only?images=0", "takes none", "--perception detector"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run of sgcot seeing on a text model: %v, want a refusal naming %s", err, want)
		}
	}
	// The image is the default: the same refusal without the flag.
	_, _, err = runCLI(t, "run", "--agents", "clara", "--model", "openai:text-only?images=0", "--episodes", "1", "--quiet")
	if err == nil || !strings.Contains(err.Error(), `agent "clara" shows the model images`) {
		t.Errorf("run of clara on a text model at the default perception: %v, want a refusal for images", err)
	}
	// With the detector's list the same model is fine: nothing is refused
	// before the model is opened (which then wants a key).
	_, _, err = runCLI(t, "run", "--agents", "sgcot", "--perception", "detector", "--model", "openai:text-only?images=0", "--episodes", "1", "--quiet")
	if err == nil || strings.Contains(err.Error(), "takes none") {
		t.Errorf("run of sgcot with the detector on a text model: %v, want no refusal for images", err)
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

// TestSeeingAgainstServeSim plays SG-CoT, Inner Monologue and ProgPrompt
// perceiving through the camera image over real HTTP (the images in the
// request bodies as data URLs) against serve-sim, and in process: the
// records are the same. CLARA is left out: its samples differ by
// Request.Sample, which the openai backend sends only as a move of the
// seed, so serve-sim draws other samples than the in-process model, with
// the detector's list as with the image.
func TestSeeingAgainstServeSim(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	t.Setenv("OPENAI_API_KEY", "sk-seeing-test")
	t.Setenv("OPENAI_BASE_URL", startServeSim(t, "sim"))
	grid := []string{"--agents", "sgcot,sgcot-no-edges,inner-monologue,progprompt", "--perception", "image", "--tasks", "pick_place,handover",
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
