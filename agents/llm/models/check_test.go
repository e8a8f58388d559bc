package models

import (
	"path/filepath"
	"strings"
	"testing"
)

// Check refuses what Open refuses for the spec's form, without opening:
// each row is run through both (with keys set, so that only the form can
// fail), and they must agree.
func TestCheckAgreesWithOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cassettes")
	env := map[string]string{"OPENAI_API_KEY": "k", "GEMINI_API_KEY": "k"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		why, spec string
		wantErr   string // "" means valid
	}{
		{"the default", "sim", ""},
		{"a named profile", "sim:weak", ""},
		{"explicit rates", "sim:malformed=1,tag=0.2", ""},
		{"an unknown kind, the typo a user makes", "nosuch:x", `unknown kind "nosuch"`},
		{"an unknown profile", "sim:brilliant", `model spec "sim:brilliant"`},
		{"a rate out of range", "sim:malformed=2", `model spec "sim:malformed=2"`},
		{"empty", " ", "empty"},
		{"openai without a model", "openai:", "needs a model name"},
		{"gemini without a model", "gemini:", "needs a model name"},
		{"openai with a model", "openai:gpt-4o-mini", ""},
		{"openai with its options", "openai:o4-mini?temperature=&seed=7&context=0", ""},
		{"an unknown option, refused here as Open refuses it", "openai:o4-mini?temprature=", `unknown option "temprature"`},
		{"a bad value of a known option", "openai:sim?context=2", "want 1 or 0"},
		{"gemini takes no context", "gemini:flash?context=1", `unknown option "context"`},
		{"a cassette around sim", "record:" + dir + "=sim:perfect", ""},
		{"a cassette around a bad spec", "record:" + dir + "=nosuch:x", `unknown kind "nosuch"`},
		{"a cassette without its inner spec", "record:" + dir, "record takes DIR=SPEC"},
		{"replay without a directory", "replay:", "replay takes a directory"},
	} {
		err := Check(tc.spec)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: Check(%q) = %v, want nil", tc.why, tc.spec, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: Check(%q) = %v, want an error containing %q", tc.why, tc.spec, err, tc.wantErr)
		}
		_, openErr := Open(tc.spec, getenv)
		if (openErr == nil) != (err == nil) {
			t.Errorf("%s: Check(%q) = %v but Open = %v", tc.why, tc.spec, err, openErr)
		}
	}
}
