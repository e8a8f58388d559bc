package gemini_test

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// testImage is an llm.Image whose Data gives b (the backend does not
// decode the bytes, so they need not be a real picture here).
func testImage(digest, mime string, b []byte) llm.Image {
	return llm.Image{Digest: digest, MIME: mime, Width: 4, Height: 3, Data: func() ([]byte, error) { return b, nil }}
}

// TestImageParts checks what a user turn with images is sent as: its
// text part, then one inlineData part per image in order; and the media
// resolution, in the generation config, when the options set one.
func TestImageParts(t *testing.T) {
	a, b := []byte("\x89PNG a"), []byte("\xff\xd8 b")
	two := []llm.Image{testImage("aaaaaaaaaaaaaaaa", llm.ImagePNG, a), testImage("bbbbbbbbbbbbbbbb", llm.ImageJPEG, b)}
	inline := func(mime string, data []byte) map[string]any {
		return map[string]any{"inlineData": map[string]any{"mimeType": mime, "data": base64.StdEncoding.EncodeToString(data)}}
	}
	text := func(s string) map[string]any { return map[string]any{"text": s} }
	tests := []struct {
		name, why string
		media     string
		msg       llm.Message
		want      []any // the user content's parts
		wantMedia any   // generationConfig.mediaResolution; nil for none
	}{
		{"text and two images", "the text part first, then each image in order with its type; no media resolution by default",
			"", llm.Message{Role: llm.RoleUser, Text: "Which bowl?", Images: two},
			[]any{text("Which bowl?"), inline(llm.ImagePNG, a), inline(llm.ImageJPEG, b)}, nil},
		{"images alone", "no empty text part before the images",
			"", llm.Message{Role: llm.RoleUser, Images: two[1:]},
			[]any{inline(llm.ImageJPEG, b)}, nil},
		{"low", "media_resolution=low is the API's MEDIA_RESOLUTION_LOW",
			gemini.MediaLow, llm.Message{Role: llm.RoleUser, Text: "x", Images: two[:1]},
			[]any{text("x"), inline(llm.ImagePNG, a)}, "MEDIA_RESOLUTION_LOW"},
		{"medium", "medium", gemini.MediaMedium, llm.Message{Role: llm.RoleUser, Text: "x", Images: two[:1]},
			[]any{text("x"), inline(llm.ImagePNG, a)}, "MEDIA_RESOLUTION_MEDIUM"},
		{"high, no image", "the resolution goes out on every call, with images or not; a turn without images keeps its one text part",
			gemini.MediaHigh, llm.Message{Role: llm.RoleUser, Text: "plain"},
			[]any{text("plain")}, "MEDIA_RESOLUTION_HIGH"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := &fakeGemini{reply: okBody}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			m, err := gemini.New("gemini-test", gemini.Options{APIKey: "k", BaseURL: srv.URL, MediaResolution: tc.media})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{tc.msg}}); err != nil {
				t.Fatal(err)
			}
			body := fake.bodies[0]
			contents, _ := body["contents"].([]any)
			if len(contents) != 1 {
				t.Fatalf("contents %v", body["contents"])
			}
			got := contents[0].(map[string]any)["parts"]
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: parts\n%s\nwant\n%s", tc.why, dump(got), dump(tc.want))
			}
			gc, _ := body["generationConfig"].(map[string]any)
			if gc["mediaResolution"] != tc.wantMedia {
				t.Errorf("%s: mediaResolution %v, want %v", tc.why, gc["mediaResolution"], tc.wantMedia)
			}
		})
	}
}

// TestImageErrors: an image that cannot be sent fails the request before
// any HTTP call, as a bad request naming the message, the image and what
// is wrong.
func TestImageErrors(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	m, err := gemini.New("m", gemini.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	const digest = "0123456789abcdef0123456789abcdef"
	good := testImage(digest, llm.ImagePNG, []byte("png"))
	failing := good
	failing.Data = func() ([]byte, error) { return nil, errors.New("the renderer is gone") }
	noData := good
	noData.Data = nil
	gif := testImage(digest, "image/gif", []byte("GIF89a"))
	user := llm.Message{Role: llm.RoleUser, Text: "hi"}
	tests := []struct {
		name, why string
		msgs      []llm.Message
		want      []string // pieces of the error
	}{
		{"assistant image", "only user turns show images", []llm.Message{user, {Role: llm.RoleAssistant, Text: "a", Images: []llm.Image{good}}},
			[]string{"message 1", `role "assistant"`, "only user turns"}},
		{"tool image", "a tool result is text", []llm.Message{user, {Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c", Name: "f"}}}, {Role: llm.RoleTool, ToolCallID: "c", Images: []llm.Image{good}}},
			[]string{"message 2", `role "tool"`, "only user turns"}},
		{"bytes fail", "the bytes are made when the request is built; their failure names the image",
			[]llm.Message{{Role: llm.RoleUser, Images: []llm.Image{good, failing}}}, []string{"message 0", "image 1", digest, "the renderer is gone"}},
		{"no bytes", "an image read back by its digest alone cannot be sent",
			[]llm.Message{{Role: llm.RoleUser, Images: []llm.Image{noData}}}, []string{"message 0", "image 0", digest, "digest alone"}},
		{"gif", "only the types llm.Image allows", []llm.Message{{Role: llm.RoleUser, Images: []llm.Image{gif}}}, []string{"image 0", `"image/gif"`}},
	}
	for _, tc := range tests {
		_, err := m.Generate(context.Background(), llm.Request{Messages: tc.msgs})
		if llm.KindOf(err) != llm.KindBadRequest {
			t.Errorf("%s (%s): %v, want a bad request", tc.name, tc.why, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s (%s): %q does not say %q", tc.name, tc.why, err, w)
			}
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d HTTP calls, want none", n)
	}
}

// TestImageTokensInInput: Gemini reports a prompt's image tokens apart,
// by modality, as a breakdown of promptTokenCount; the reply's input
// tokens are that total, with the image tokens counted once.
func TestImageTokensInInput(t *testing.T) {
	fake := &fakeGemini{reply: `{"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}],
		"usageMetadata":{"promptTokenCount":300,"candidatesTokenCount":5,"totalTokenCount":305,
		"promptTokensDetails":[{"modality":"TEXT","tokenCount":42},{"modality":"IMAGE","tokenCount":258}]}}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	m, err := gemini.New("gemini-test", gemini.Options{APIKey: "k", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x", Images: []llm.Image{testImage("0123456789abcdef", llm.ImagePNG, []byte("png"))}}}})
	if err != nil {
		t.Fatal(err)
	}
	if reply.InputTokens != 300 || reply.OutputTokens != 5 {
		t.Errorf("tokens in %d, out %d; want 300 (text and image) and 5", reply.InputTokens, reply.OutputTokens)
	}
}

func TestMediaResolutionOption(t *testing.T) {
	for _, r := range []string{"", gemini.MediaLow, gemini.MediaMedium, gemini.MediaHigh} {
		if _, err := gemini.New("m", gemini.Options{BaseURL: "http://localhost:1", MediaResolution: r}); err != nil {
			t.Errorf("media resolution %q: %v", r, err)
		}
	}
	_, err := gemini.New("m", gemini.Options{BaseURL: "http://localhost:1", MediaResolution: "ultra"})
	if err == nil || !strings.Contains(err.Error(), `"ultra"`) || !strings.Contains(err.Error(), "low, medium or high") {
		t.Errorf("media resolution ultra: %v, want an error naming it and the valid ones", err)
	}
}
