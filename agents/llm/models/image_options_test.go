package models

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// The image options of the openai and gemini specs: each row is read by
// Check and by Open, which must agree.
func TestImageOptions(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "k", "GEMINI_API_KEY": "k"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		why, spec string
		wantErr   string // "" means valid
	}{
		{"openai's image detail, each value", "openai:gpt-4o?detail=low", ""},
		{"high detail, with a generation setting", "openai:gpt-4o?temperature=0.2&detail=high", ""},
		{"auto, OpenAI's own default, may be sent explicitly", "openai:gpt-4o?detail=auto", ""},
		{"a detail OpenAI does not know", "openai:gpt-4o?detail=medium", `option detail="medium": want low, high, auto`},
		{"an empty detail is no value: absent is how to send none", "openai:gpt-4o?detail=", `option detail="": want low, high, auto`},
		{"detail is case-sensitive, as the API is", "openai:gpt-4o?detail=LOW", `option detail="LOW"`},
		{"gemini's media resolution, each value", "gemini:gemini-2.5-flash?media_resolution=low", ""},
		{"medium", "gemini:gemini-2.5-flash?media_resolution=medium", ""},
		{"high, with a generation setting", "gemini:gemini-2.5-flash?seed=3&media_resolution=high", ""},
		{"a resolution the API does not have", "gemini:gemini-2.5-flash?media_resolution=ultra", `option media_resolution="ultra": want low, medium, high`},
		{"the API's own constant is not the option's spelling", "gemini:g?media_resolution=MEDIA_RESOLUTION_LOW", `media_resolution="MEDIA_RESOLUTION_LOW"`},
		{"detail is openai's option, not gemini's", "gemini:g?detail=low", `unknown option "detail"`},
		{"media_resolution is gemini's option, not openai's", "openai:m?media_resolution=low", `unknown option "media_resolution"`},
		{"inside a cassette's spec", "record:" + t.TempDir() + "=openai:gpt-4o?detail=lo", `option detail="lo"`},
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
		if tc.wantErr != "" && openErr != nil && !strings.Contains(openErr.Error(), tc.wantErr) {
			t.Errorf("%s: Open(%q) = %v, want an error containing %q", tc.why, tc.spec, openErr, tc.wantErr)
		}
	}
}

// TestImageOptionsReachTheWire: detail and media_resolution reach the
// body, and the model's name keeps them, so that cassettes and records
// tell the settings apart.
func TestImageOptionsReachTheWire(t *testing.T) {
	var mu sync.Mutex
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body = nil
		json.NewDecoder(r.Body).Decode(&body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, ":generateContent") {
			w.Write([]byte(`{"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}`))
			return
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`))
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "GOOGLE_GEMINI_BASE_URL": srv.URL}
	getenv := func(k string) string { return env[k] }
	png := []byte("\x89PNG not decoded by the client")
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x", Images: []llm.Image{{
		Digest: "0123456789abcdef", MIME: llm.ImagePNG, Width: 4, Height: 3,
		Data: func() ([]byte, error) { return png, nil },
	}}}}}

	m, err := Open("openai:gpt-4o?detail=low", getenv)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "openai:gpt-4o?detail=low" {
		t.Errorf("Name() = %q, want the spec with its detail", m.Name())
	}
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got, _ := json.Marshal(body["messages"])
	mu.Unlock()
	if want := `"image_url":{"detail":"low","url":"data:image/png;base64,`; !strings.Contains(string(got), want) {
		t.Errorf("openai messages %s: want an image part with %s", got, want)
	}

	m, err = Open("gemini:gemini-2.5-flash?media_resolution=medium", getenv)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "gemini:gemini-2.5-flash?media_resolution=medium" {
		t.Errorf("Name() = %q, want the spec with its media resolution", m.Name())
	}
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	gc, _ := body["generationConfig"].(map[string]any)
	mu.Unlock()
	if gc["mediaResolution"] != "MEDIA_RESOLUTION_MEDIUM" {
		t.Errorf("gemini generationConfig %v: want mediaResolution MEDIA_RESOLUTION_MEDIUM", gc)
	}
}
