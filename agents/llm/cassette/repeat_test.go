package cassette_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/cassette"
)

// sampler answers as a live model does on each of an episode's repeats:
// the same request draws afresh, here a reply naming the repeat.
type sampler struct{ calls int }

func (s *sampler) Name() string { return "openai:gpt-test" }

func (s *sampler) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	s.calls++
	return llm.Reply{Text: fmt.Sprintf("draw %d", llm.RepeatFrom(ctx)), FinishReason: llm.FinishStop}, nil
}

// The key of a call at repeat 0 is llm.Hash, as in every store written
// before repeats had keys; a call at a repeat above 0 has a key of its
// own, a hash of the same form, fixed here so that stores stay readable.
func TestKeyOfARepeat(t *testing.T) {
	req := llm.Request{System: "plan", Messages: []llm.Message{user("put the red block in the bowl")}}
	m := "openai:gpt-test"
	if got, want := cassette.Key(m, req, 0), llm.Hash(m, req); got != want {
		t.Errorf("Key at repeat 0 = %s, want llm.Hash %s", got, want)
	}
	seen := map[string]int{}
	for r := range 4 {
		k := cassette.Key(m, req, r)
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(k) {
			t.Errorf("Key at repeat %d = %q, want 32 hex digits", r, k)
		}
		if o, ok := seen[k]; ok {
			t.Errorf("repeats %d and %d share the key %s", o, r, k)
		}
		seen[k] = r
		if k != cassette.Key(m, req, r) {
			t.Errorf("Key at repeat %d is not stable", r)
		}
	}
	if cassette.Key(m, req, 1) == cassette.Key("gemini:g", req, 1) {
		t.Error("the key of a repeat ignores the model")
	}
	if got, want := cassette.Key("m", llm.Request{System: "s"}, 1), "3123b3bd6ab3348cc3c82ecef5255003"; got != want {
		t.Errorf("Key(m, {System: s}, 1) = %s, want %s: a change here orphans every recorded repeat", got, want)
	}
}

// Each repeat of a call is recorded, served and verified under its own
// key; a file of repeat 0 holds no "repeat"; a repeat never recorded
// misses, naming its repeat.
func TestRecordAndReplayRepeats(t *testing.T) {
	dir := t.TempDir()
	live := &sampler{}
	rec, err := cassette.Record(dir, live)
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{System: "plan", Messages: []llm.Message{user("stack the blocks")}}
	at := func(r int) context.Context { return llm.WithRepeat(context.Background(), r) }
	for range 2 { // the second pass is served from the cassette
		for r := range 2 {
			got, err := rec.Generate(at(r), req)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("draw %d", r); got.Text != want {
				t.Errorf("recorder at repeat %d: %q, want %q", r, got.Text, want)
			}
		}
	}
	if live.calls != 2 {
		t.Errorf("the live model took %d calls, want 2 (one a repeat)", live.calls)
	}
	for r, want := range []string{"", `"repeat": 1,`} {
		data, err := cassette.ReadJSON(dir, cassette.Key(live.Name(), req, r))
		if err != nil {
			t.Fatalf("repeat %d: %v", r, err)
		}
		if want == "" && strings.Contains(string(data), `"repeat"`) {
			t.Errorf("the file of repeat 0 holds a repeat:\n%s", data)
		} else if want != "" && !strings.Contains(string(data), want) {
			t.Errorf("the file of repeat %d lacks %s:\n%s", r, want, data)
		}
	}
	if _, err := cassette.Verify(dir); err != nil {
		t.Errorf("verify: %v", err)
	}
	play, err := cassette.Replay(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for r := range 2 {
		got, err := play.Generate(at(r), req)
		if err != nil || got.Text != fmt.Sprintf("draw %d", r) {
			t.Errorf("replay at repeat %d: %q, %v", r, got.Text, err)
		}
	}
	_, err = play.Generate(llm.WithEpisode(at(2), "e"), req)
	var miss *cassette.MissError
	if !errors.As(err, &miss) || miss.Hash != cassette.Key(live.Name(), req, 2) || miss.Repeat != 2 ||
		!strings.Contains(err.Error(), "(episode e, repeat 2)") {
		t.Errorf("replay at repeat 2: %v, want a miss of its key naming the repeat", err)
	}
	if _, err := play.Generate(at(-1), req); err == nil {
		t.Error("a call at repeat -1 was served")
	}

	// A file whose repeat is edited no longer hashes to its name.
	k := cassette.Key(live.Name(), req, 1)
	data, _ := cassette.ReadJSON(dir, k)
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f["repeat"] = 2
	edited, _ := json.Marshal(f)
	os.Remove(filepath.Join(dir, k+".zst"))
	os.WriteFile(filepath.Join(dir, k+".json"), edited, 0o644)
	if _, err := cassette.Verify(dir); err == nil || !strings.Contains(err.Error(), "at repeat 2 hashes to "+cassette.Key(live.Name(), req, 2)) {
		t.Errorf("verify of a file whose repeat was edited: %v", err)
	}
}
