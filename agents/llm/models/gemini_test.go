package models

import (
	"strings"
	"testing"
)

// A Gemini spec without the settings it needs is refused with a message
// that names every variable the setting is read from, so that a user who
// set one the message leaves out is not told to set something else.
func TestGeminiMissingSettingsNameTheVariables(t *testing.T) {
	for _, tc := range []struct {
		why  string
		env  map[string]string
		want []string
	}{
		{"no key at all", nil, []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}},
		{"Vertex AI without a project", map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "true", "GOOGLE_CLOUD_LOCATION": "us-central1"},
			[]string{"GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GEMINI_API_KEY", "GOOGLE_API_KEY"}},
	} {
		_, err := Open("gemini:gemini-2.5-flash", func(k string) string { return tc.env[k] })
		if err == nil {
			t.Errorf("%s: no error", tc.why)
			continue
		}
		for _, v := range tc.want {
			if !strings.Contains(err.Error(), v) {
				t.Errorf("%s: %q does not name %s", tc.why, err, v)
			}
		}
	}
	// Either key is enough.
	for _, k := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"} {
		if _, err := Open("gemini:gemini-2.5-flash", func(v string) string { return map[string]string{k: "key"}[v] }); err != nil {
			t.Errorf("with %s set: %v", k, err)
		}
	}
}
