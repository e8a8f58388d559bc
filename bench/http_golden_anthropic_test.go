package bench_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/anthropic"
)

// messagesReply is what the capture answers every Messages API call with:
// the body sent is what is kept, and the simulated model behind serve-sim
// speaks only the OpenAI and Gemini APIs.
const messagesReply = `{"id":"msg_golden","type":"message","role":"assistant","model":"claude-sonnet-5-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`

// messagesCapture is a local Messages API server that keeps the body of
// every request it gets and answers with messagesReply.
type messagesCapture struct {
	mu     sync.Mutex
	bodies [][]byte
	srv    *httptest.Server
}

func newMessagesCapture(t *testing.T) *messagesCapture {
	t.Helper()
	c := &messagesCapture{}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.URL.Path != "/v1/messages" {
			http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"not POST /v1/messages"}}`, http.StatusNotFound)
			return
		}
		c.mu.Lock()
		c.bodies = append(c.bodies, body)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, messagesReply)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *messagesCapture) last(t *testing.T) []byte {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bodies) == 0 {
		t.Fatal("the server got no request")
	}
	return c.bodies[len(c.bodies)-1]
}

// messagesPNG is a fixed 3×2 PNG, stored without compression so that its
// bytes do not move with the compressor's.
func messagesPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for y := range 2 {
		for x := range 3 {
			img.Set(x, y, color.NRGBA{uint8(120 * x), uint8(200 * y), 40, 255})
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The bodies the anthropic backend (the Messages API) puts on the wire for
// the first call of each kind the workflows make, as
// TestHTTPRequestBodiesGolden keeps OpenAI's and Gemini's, plus one call
// that shows an image, kept byte for byte under testdata/http/anthropic/
// (rewrite with -update). None carries the call context.
func TestHTTPRequestBodiesGoldenAnthropic(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays every workflow of every track")
	}
	srv := newMessagesCapture(t)
	m, err := anthropic.New("claude-sonnet-5-5", anthropic.Options{APIKey: "sk-ant-test", BaseURL: srv.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	kinds := firstOfEachKind(t)
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	ctx := context.Background()
	for _, k := range names {
		if _, err := m.Generate(ctx, kinds[k]); err != nil {
			t.Fatalf("anthropic %s: %v", k, err)
		}
		body := srv.last(t)
		if l := leaks(body); len(l) > 0 {
			t.Errorf("anthropic %s: the body carries %q", k, l)
		}
		goldenHTTP(t, "anthropic/"+strings.ReplaceAll(k, "/", "_")+".json", body)
	}

	pic := messagesPNG(t)
	req := llm.Request{
		System: "You plan for a tabletop robot.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which bowl is nearer the red block?", Images: []llm.Image{{
			Digest: "0123456789abcdef0123456789abcdef", MIME: llm.ImagePNG, Width: 3, Height: 2,
			Data: func() ([]byte, error) { return pic, nil },
		}}}},
	}
	if _, err := m.Generate(ctx, req); err != nil {
		t.Fatalf("anthropic image: %v", err)
	}
	goldenHTTP(t, "anthropic/image_png.json", srv.last(t))
}
