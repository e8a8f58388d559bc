package models

import (
	"path/filepath"
	"testing"
)

// NameOf says, without opening, the name Open's model carries.
func TestNameOfIsOpensName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cassettes")
	env := map[string]string{"OPENAI_API_KEY": "k", "GEMINI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}
	getenv := func(k string) string { return env[k] }
	for _, spec := range []string{
		"sim", " sim:weak ", "sim:weak,salt=3", "sim:hallucinate=0.1,tag=0.3",
		"openai:gpt-4o-mini", "openai:sim?context=1", "openai:x?context=1&seed=1", "openai:x?images=0",
		"gemini:gemini-2.5-flash", "gemini:g?media_resolution=low", "anthropic:claude-x?max_tokens=512",
		"record:" + dir + "=openai:sim?context=1", "record:" + dir + "=sim:weak",
	} {
		m, err := Open(spec, getenv)
		if err != nil {
			t.Fatalf("Open(%q): %v", spec, err)
		}
		got, ok := NameOf(spec)
		if !ok || got != m.Name() {
			t.Errorf("NameOf(%q) = %q, %v; Open's model is named %q", spec, got, ok, m.Name())
		}
		// A replay naming that model is named as it is.
		if got, ok := NameOf("replay:" + dir + "=" + m.Name()); !ok || got != m.Name() {
			t.Errorf("NameOf(replay:DIR=%s) = %q, %v", m.Name(), got, ok)
		}
	}
	for _, spec := range []string{"replay:" + dir, "nosuch:x", "sim:", ""} {
		if got, ok := NameOf(spec); ok {
			t.Errorf("NameOf(%q) = %q, true; want no name (in the recordings, or a bad spec)", spec, got)
		}
	}
}
