package models

import (
	"strings"
	"testing"
)

func TestCutOptions(t *testing.T) {
	for _, tc := range []struct {
		rest, name string
		want       map[string]string
	}{
		{"gpt-4o-mini", "gpt-4o-mini", map[string]string{}},
		{"qwen3:8b", "qwen3:8b", map[string]string{}},
		{"sim?context=1", "sim", map[string]string{"context": "1"}},
		{"qwen3:8b?context=0", "qwen3:8b", map[string]string{"context": "0"}},
		{"m?context=", "m", map[string]string{"context": ""}},
		{"?context=1", "", map[string]string{"context": "1"}},
	} {
		name, opts, err := cutOptions("openai:"+tc.rest, tc.rest, "context")
		if err != nil || name != tc.name || len(opts.values) != len(tc.want) {
			t.Errorf("%q: %q, %v, %v; want %q, %v", tc.rest, name, opts.values, err, tc.name, tc.want)
			continue
		}
		for k, v := range tc.want {
			if opts.values[k] != v {
				t.Errorf("%q: %s=%q, want %q", tc.rest, k, opts.values[k], v)
			}
		}
	}
}

// Every refusal names the spec, the option at fault and what is valid.
func TestCutOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		rest  string
		valid []string
		want  []string
	}{
		{"m?colour=1", []string{"context"}, []string{`"openai:m?colour=1"`, `unknown option "colour"`, "valid options: context"}},
		{"m?context=1&temperature=0", []string{"context"}, []string{`unknown option "temperature"`, "valid options: context"}},
		{"m?context=1", nil, []string{`unknown option "context"`, "takes no options"}},
		{"m?context", []string{"context"}, []string{`option "context" has no value`, "context=VALUE"}},
		{"m?context=1&context=0", []string{"context"}, []string{`option "context" is given twice`}},
		{"m?", []string{"context"}, []string{`nothing after "?"`, "valid options: context"}},
		{"m?=1", []string{"context"}, []string{`option "=1" has no key`}},
		{"m?context=1&", []string{"context"}, []string{`option "" has no key`}},
	} {
		_, _, err := cutOptions("openai:"+tc.rest, tc.rest, tc.valid...)
		if err == nil {
			t.Errorf("%q: accepted", tc.rest)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q lacks %q", tc.rest, err, w)
			}
		}
	}
}

func TestBooleanOption(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "true": true, "YES": true, "0": false, "false": false, "no": false} {
		_, opts, err := cutOptions("openai:m?context="+v, "m?context="+v, "context")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := opts.boolean("context"); err != nil || got != want {
			t.Errorf("context=%s: %v, %v; want %v", v, got, err, want)
		}
	}
	_, opts, _ := cutOptions("openai:m", "m", "context")
	if got, err := opts.boolean("context"); err != nil || got {
		t.Errorf("absent: %v, %v; want false", got, err)
	}
	_, opts, _ = cutOptions("openai:m?context=maybe", "m?context=maybe", "context")
	if _, err := opts.boolean("context"); err == nil || !strings.Contains(err.Error(), `context="maybe"`) || !strings.Contains(err.Error(), "want 1 or 0") {
		t.Errorf("context=maybe: %v", err)
	}
}

// Through Open: the options reach the backend's spec, and a bad one is
// refused before anything is opened.
func TestOpenWithOptions(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": "http://localhost:1/v1", "GEMINI_API_KEY": "k"}[k]
	}
	for _, spec := range []string{"openai:sim?context=1", "openai:qwen3:8b?context=0", "record:" + t.TempDir() + "=openai:sim?context=1"} {
		if _, err := Open(spec, env); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
	for spec, want := range map[string]string{
		"openai:sim?context=2":   "want 1 or 0",
		"openai:sim?sed=1":       `unknown option "sed" (valid options: temperature, seed, schema, max_tokens, images, context, detail)`,
		"openai:?context=1":      "openai needs a model name",
		"gemini:flash?context=1": `unknown option "context" (valid options: temperature, seed, schema, max_tokens, images, media_resolution)`,
	} {
		if _, err := Open(spec, env); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
}

// FuzzCutOptions: any spec tail either parses into a name without "?" and
// known keys whose values, written back, give the same options, or is
// refused with an error that names the spec.
func FuzzCutOptions(f *testing.F) {
	for _, s := range []string{"gpt-4o-mini", "qwen3:8b?context=1", "m?context=1&context=0", "m?", "m?=", "m?&&", "m?context=a=b", "?", "m?context=1?x=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		spec := "openai:" + rest
		name, opts, err := cutOptions(spec, rest, "context", "seed")
		if err != nil {
			if !strings.Contains(err.Error(), "model spec ") {
				t.Fatalf("error %q does not name the spec", err)
			}
			return
		}
		if strings.Contains(name, "?") {
			t.Fatalf("name %q holds a ?", name)
		}
		var parts []string
		for _, k := range []string{"context", "seed"} {
			if v, ok := opts.values[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		if len(parts) != len(opts.values) {
			t.Fatalf("options %v hold keys other than the valid ones", opts.values)
		}
		if len(parts) == 0 {
			return
		}
		again := name + "?" + strings.Join(parts, "&")
		name2, opts2, err := cutOptions("openai:"+again, again, "context", "seed")
		if err != nil || name2 != name || len(opts2.values) != len(opts.values) {
			t.Fatalf("%q → %q: %q %v %v", rest, again, name2, opts2.values, err)
		}
		for k, v := range opts.values {
			if opts2.values[k] != v {
				t.Fatalf("%q → %q: %s=%q, want %q", rest, again, k, opts2.values[k], v)
			}
		}
		if _, err := opts.boolean("context"); err != nil && !strings.Contains(err.Error(), "option context=") {
			t.Fatalf("boolean error %q does not name the option", err)
		}
	})
}
