package openai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/openai"
)

// testImage is an llm.Image whose Data gives b (the backend does not decode
// the bytes, so they need not be a real picture here).
func testImage(digest, mime string, b []byte) llm.Image {
	return llm.Image{Digest: digest, MIME: mime, Width: 4, Height: 3, Data: func() ([]byte, error) { return b, nil }}
}

// TestImageParts checks the content parts a user turn with images is sent
// as: text first when there is text, then the images in order, as data
// URLs, with the detail the options give.
func TestImageParts(t *testing.T) {
	a, b := []byte("\x89PNG a"), []byte("\xff\xd8 b")
	urlA := "data:image/png;base64," + base64.StdEncoding.EncodeToString(a)
	urlB := "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b)
	two := []llm.Image{testImage("aaaaaaaaaaaaaaaa", llm.ImagePNG, a), testImage("bbbbbbbbbbbbbbbb", llm.ImageJPEG, b)}
	imagePart := func(url, detail string) map[string]any {
		u := map[string]any{"url": url}
		if detail != "" {
			u["detail"] = detail
		}
		return map[string]any{"type": "image_url", "image_url": u}
	}
	tests := []struct {
		name, why string
		detail    string
		msg       llm.Message
		want      any // the user message's content
	}{
		{"text and two images", "the text part first, then each image in order, each with its own type; no detail by default",
			"", llm.Message{Role: llm.RoleUser, Text: "Which bowl?", Images: two},
			[]any{map[string]any{"type": "text", "text": "Which bowl?"}, imagePart(urlA, ""), imagePart(urlB, "")}},
		{"images alone", "no empty text part before the images",
			"", llm.Message{Role: llm.RoleUser, Images: two[:1]},
			[]any{imagePart(urlA, "")}},
		{"detail low", "detail=low goes out on every image",
			openai.DetailLow, llm.Message{Role: llm.RoleUser, Text: "x", Images: two},
			[]any{map[string]any{"type": "text", "text": "x"}, imagePart(urlA, "low"), imagePart(urlB, "low")}},
		{"detail auto", "auto is sent when asked for, though it is OpenAI's default",
			openai.DetailAuto, llm.Message{Role: llm.RoleUser, Images: two[1:]},
			[]any{imagePart(urlB, "auto")}},
		{"no images", "a turn without images keeps its plain string content, whatever the detail",
			openai.DetailHigh, llm.Message{Role: llm.RoleUser, Text: "plain"},
			"plain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				json.NewDecoder(r.Body).Decode(&body)
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, okBody)
			}))
			defer srv.Close()
			m, err := openai.New("gpt-4o", openai.Options{BaseURL: srv.URL, ImageDetail: tc.detail})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{tc.msg}}); err != nil {
				t.Fatal(err)
			}
			msgs, _ := body["messages"].([]any)
			if len(msgs) != 1 {
				t.Fatalf("messages %v", body["messages"])
			}
			got := msgs[0].(map[string]any)["content"]
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: content\n%s\nwant\n%s", tc.why, dump(got), dump(tc.want))
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
	m, err := openai.New("m", openai.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	const digest = "0123456789abcdef0123456789abcdef"
	good := testImage(digest, llm.ImagePNG, []byte("png"))
	failing := good
	failing.Data = func() ([]byte, error) { return nil, errors.New("the renderer is gone") }
	noData := good
	noData.Data = nil
	empty := testImage(digest, llm.ImagePNG, nil)
	gif := testImage(digest, "image/gif", []byte("GIF89a"))
	flat := good
	flat.Height = 0
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
		{"empty bytes", "no bytes is no image", []llm.Message{{Role: llm.RoleUser, Images: []llm.Image{empty}}}, []string{"image 0", digest, "empty"}},
		{"gif", "only the types llm.Image allows", []llm.Message{{Role: llm.RoleUser, Images: []llm.Image{gif}}}, []string{"image 0", `"image/gif"`}},
		{"no size", "an image has a size", []llm.Message{{Role: llm.RoleUser, Images: []llm.Image{flat}}}, []string{"image 0", "4×0"}},
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

func TestImageDetailOption(t *testing.T) {
	for _, d := range []string{"", openai.DetailLow, openai.DetailHigh, openai.DetailAuto} {
		if _, err := openai.New("m", openai.Options{BaseURL: "http://localhost:1", ImageDetail: d}); err != nil {
			t.Errorf("detail %q: %v", d, err)
		}
	}
	_, err := openai.New("m", openai.Options{BaseURL: "http://localhost:1", ImageDetail: "medium"})
	if err == nil || !strings.Contains(err.Error(), `"medium"`) || !strings.Contains(err.Error(), "low, high or auto") {
		t.Errorf("detail medium: %v, want an error naming it and the valid ones", err)
	}
}
