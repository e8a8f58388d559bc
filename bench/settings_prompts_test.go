package bench_test

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/ambibench/ambibench/agents/prompt"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/tabletop"
	// The built-in tracks, registered: a set named as one is that
	// track's (bench.ReadsPromptSet).
	_ "github.com/ambibench/ambibench/bench/tracks"
)

// An extension's prompt set, named as no track.
var _ = prompt.Register("ext-settings-test", fstest.MapFS{"p/a.tmpl": {Data: []byte("a")}}, "p/*.tmpl", map[string]any{"a.tmpl": nil})

// TestSettingsNamePrompts: run.json's settings name each replaced
// template the track reads, by its hash: its own set's and an
// extension's, not another track's.
func TestSettingsNamePrompts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for file, text := range map[string]string{
		"tabletop/direct_system.tmpl":   "Plan.",
		"household/react_system.tmpl":   "Play.",
		"ext-settings-test/a.tmpl":      "b",
		"semmap/semmap_choose.tmpl":     "Choose.",
		"tabletop/forced_decision.tmpl": "Decide.",
	} {
		path := filepath.Join(dir, file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o, err := prompt.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		track bench.Track
		want  []string
	}{
		{tabletop.New(), []string{"prompt:tabletop/direct_system.tmpl", "prompt:tabletop/forced_decision.tmpl", "prompt:ext-settings-test/a.tmpl"}},
		{household.New(), []string{"prompt:household/react_system.tmpl", "prompt:ext-settings-test/a.tmpl"}},
	} {
		s, err := bench.Settings(bench.Options{Track: tc.track, Seed: 1, Prompts: o})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for k := range s {
			if len(k) > len(prompt.SettingPrefix) && k[:len(prompt.SettingPrefix)] == prompt.SettingPrefix {
				n++
			}
		}
		for _, k := range tc.want {
			if len(s[k]) != 64 {
				t.Errorf("%s: setting %s is %q, want a SHA-256", tc.track.Name(), k, s[k])
			}
		}
		if n != len(tc.want) {
			t.Errorf("%s: %d prompt settings, want %d (%v): %v", tc.track.Name(), n, len(tc.want), tc.want, s)
		}
		plain, err := bench.Settings(bench.Options{Track: tc.track, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(plain)+len(tc.want) != len(s) {
			t.Errorf("%s: settings without prompts %v, with %v", tc.track.Name(), plain, s)
		}
	}
}
