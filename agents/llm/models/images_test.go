package models

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTakesImages(t *testing.T) {
	for _, tt := range []struct {
		spec, why string
		want      bool
	}{
		{"sim", "the simulated model reads the image's objects", true},
		{"openai:gpt-4o", "a live model takes images unless its spec says not", true},
		{"openai:qwen?images=0", "images=0 says a text-only model", false},
		{"gemini:g?images=false", "false says it too", false},
		{"record:c=openai:qwen?images=0", "a recorder takes what the model it wraps takes", false},
		{"replay:c", "a replay whose model is read from its recordings takes what they hold", true},
		{"replay:c=openai:qwen?images=0", "a replay naming its model takes what that model takes", false},
		{"replay:c=sim", "a replay of the simulated model takes images", true},
	} {
		if got := TakesImages(tt.spec); got != tt.want {
			t.Errorf("TakesImages(%q) = %v, want %v (%s)", tt.spec, got, tt.want, tt.why)
		}
	}
}

// replay:DIR=MODEL splits at the first '=', as record:DIR=SPEC does: a
// directory whose name holds one is refused with the split it was read
// as, not with a missing directory of half its name.
func TestReplayDirWithAnEquals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "seed=1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Open("replay:"+dir, nil)
	if err == nil || !strings.Contains(err.Error(), "holds an '='") || !strings.Contains(err.Error(), `MODEL "1"`) {
		t.Errorf("error %v, want one saying the directory holds an '=' and how the spec was split", err)
	}
}
