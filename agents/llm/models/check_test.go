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
		{"replay without a directory", "replay:", "replay takes DIR or DIR=MODEL"},
		{"replay naming no model", "replay:cassettes=", "replay takes DIR or DIR=MODEL"},
		{"replay naming its model", "replay:" + dir + "=sim:perfect", ""},
		{"replay naming a model but no directory", "replay:=sim", "replay takes DIR or DIR=MODEL"},
		{"sim: with nothing after the colon ran the default profile under the name \"sim:\" (issue 33)", "sim:", `nothing after "sim:"; write sim for the default profile`},
		{"sim: with only blanks after it is the same slip", "sim:  ", `nothing after "sim:"`},
		{"a NaN rate ran as if no rate were set (issue 33)", "sim:hallucinate=NaN", "hallucinate=NaN: want a number in [0, 1]"},
		{"a repeated rate ran with the last one (issue 33)", "sim:hallucinate=0.1,hallucinate=0.9", "hallucinate is given twice"},
		{"a cassette around sim: is refused as sim: is", "record:" + dir + "=sim:", `nothing after "sim:"`},
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

// A spec that cannot be read is named with why, and the list of forms
// that follows an unknown kind is the kinds alone: the whole of Forms,
// 400 characters, once followed every mistake (issue 33), a rate's typo
// included, and buried the one line that said what was wrong.
func TestSpecErrorsAreShort(t *testing.T) {
	for _, tc := range []struct {
		why, spec string
		want      []string // each in the message
	}{
		{"an unknown kind names it and the kinds", "bogus:x", []string{`model spec "bogus:x": unknown kind "bogus"`, "sim[:PROFILE]", "openai:MODEL", "replay:DIR[=MODEL]", "run --help"}},
		{"an empty spec names the kinds", "", []string{`model spec "": empty; valid forms: sim[:PROFILE]`}},
		{"a bad rate names the rates, not every kind of spec", "sim:tag=2", []string{"tag=2: want a number in [0, 1]"}},
		{"an unknown rate lists the rates", "sim:sloppy=1", []string{`unknown rate "sloppy"`, "hallucinate"}},
	} {
		err := Check(tc.spec)
		if err == nil {
			t.Errorf("%s: Check(%q) accepted it", tc.why, tc.spec)
			continue
		}
		msg := err.Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tc.why, msg, w)
			}
		}
		if strings.Contains(msg, Forms) || len(msg) > 250 {
			t.Errorf("%s: a message of %d characters: %s", tc.why, len(msg), msg)
		}
	}
}

// FuzzCheck feeds Check arbitrary specs: it never panics, a spec it
// refuses is named in the error, no error repeats the whole list of
// forms, and on every kind that opens nothing on disk (all but record:
// and replay:) Open agrees with it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"sim", "sim:", "sim:weak", "sim:hallucinate=NaN", "sim:tag=0.1,tag=0.2", "sim:growth=Inf",
		"openai:gpt?seed=1", "gemini:", "anthropic:claude?temperature=1", "bogus:x", "", "record:d=sim:", "replay:", "replay:d=", "replay:=m", "replay:d=openai:gpt?seed=1"} {
		f.Add(s)
	}
	env := map[string]string{"OPENAI_API_KEY": "k", "GEMINI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}
	getenv := func(k string) string { return env[k] }
	f.Fuzz(func(t *testing.T, spec string) {
		err := Check(spec)
		if err != nil && strings.Contains(err.Error(), Forms) {
			t.Fatalf("Check(%q): the whole list of forms again: %v", spec, err)
		}
		kind, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
		if kind == "record" || kind == "replay" {
			return
		}
		_, openErr := Open(spec, getenv)
		if (openErr == nil) != (err == nil) {
			t.Fatalf("Check(%q) = %v but Open = %v", spec, err, openErr)
		}
	})
}
