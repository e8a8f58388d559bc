package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
	"github.com/ambibench/ambibench/agents/llm/openai"
	"github.com/ambibench/ambibench/agents/llm/serve"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

var updateHTTP = flag.Bool("update", false, "rewrite golden files")

// captured is a local server that keeps the body of every request it gets
// and answers it with the simulated model, in either API's shape.
type captured struct {
	mu     sync.Mutex
	bodies [][]byte
	srv    *httptest.Server
}

func newCaptured(t *testing.T) *captured {
	t.Helper()
	c := &captured{}
	h := serve.Handler(simmodel.New(simmodel.Perfect, "sim:perfect"))
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		c.bodies = append(c.bodies, body)
		c.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// last is the body of the latest request.
func (c *captured) last(t *testing.T) []byte {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bodies) == 0 {
		t.Fatal("the server got no request")
	}
	return c.bodies[len(c.bodies)-1]
}

// firstOfEachKind is, for every kind of call the workflows make, the first
// such call, by kind name.
func firstOfEachKind(t *testing.T) map[string]llm.Request {
	out := map[string]llm.Request{}
	for _, req := range workflowCalls(t) {
		k := callKind(req.Context)
		if _, ok := out[k]; !ok {
			out[k] = req
		}
	}
	// And the first planning prompt of every workflow that shows the
	// image: what a real model reads first of each, with the image.
	for a, req := range firstImagePlan {
		out["tabletop/first_plan/"+a+"/image"] = req
	}
	return out
}

// golden compares got with testdata/http/name, byte for byte, or
// rewrites it under -update.
func goldenHTTP(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "http", name)
	if *updateHTTP {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bench -run TestHTTPRequestBodiesGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the request body differs from %s (rewrite with -update if the change is meant):\n%s", path, got)
	}
}

// leaks reports what of the call context a body carries: the extension
// field, a fenced block, or a string of the context that the request
// itself does not send.
func leaks(body []byte) []string {
	var out []string
	for _, bad := range []string{llm.ContextField, "```ambibench", `"track":`, `"format":"tool_calls"`} {
		if bytes.Contains(body, []byte(bad)) {
			out = append(out, bad)
		}
	}
	return out
}

// For each kind of call the workflows make, the body that each real
// backend (OpenAI chat completions, Gemini generateContent) puts on the
// wire, captured by a local server, is kept byte for byte under
// testdata/http/ (rewrite with -update): a change to what a real model
// receives shows in review. None of them carries the call context or a
// machine-readable block; only the openai backend with SendContext (the
// spec "openai:MODEL?context=1", for serve-sim) adds the extension field,
// which has a golden of its own.
func TestHTTPRequestBodiesGolden(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays every workflow of every track")
	}
	srv := newCaptured(t)
	oa, err := openai.New("gpt-4o-mini", openai.Options{APIKey: "sk-test", BaseURL: srv.srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	oaCtx, err := openai.New("sim", openai.Options{BaseURL: srv.srv.URL + "/v1", SendContext: true})
	if err != nil {
		t.Fatal(err)
	}
	gm, err := gemini.New("gemini-2.5-flash", gemini.Options{APIKey: "AIza-test", BaseURL: srv.srv.URL + "/"})
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
		req := kinds[k]
		file := strings.ReplaceAll(k, "/", "_") + ".json"
		for _, b := range []struct {
			dir string
			m   llm.Model
		}{{"openai", oa}, {"gemini", gm}} {
			if _, err := b.m.Generate(ctx, req); err != nil {
				t.Fatalf("%s %s: %v", b.dir, k, err)
			}
			body := srv.last(t)
			if l := leaks(body); len(l) > 0 {
				t.Errorf("%s %s: the body carries %q", b.dir, k, l)
			}
			goldenHTTP(t, b.dir+"/"+file, body)
		}
	}
	// The one body that carries the context: openai with SendContext, for
	// serve-sim; its field decodes back into the context the request held.
	req := kinds["tabletop/plan/tool_calls"]
	if _, err := oaCtx.Generate(ctx, req); err != nil {
		t.Fatal(err)
	}
	body := srv.last(t)
	goldenHTTP(t, "openai_context/tabletop_plan_tool_calls.json", body)
	var wire map[string]json.RawMessage
	if err := json.Unmarshal(body, &wire); err != nil {
		t.Fatal(err)
	}
	var got llm.CallContext
	if err := json.Unmarshal(wire[llm.ContextField], &got); err != nil || got.Version != llm.ContextVersion {
		t.Fatalf("the extension field %s: %v (version %d)", wire[llm.ContextField], err, got.Version)
	}
	got.Version = 0
	a, _ := json.Marshal(got)
	w, _ := json.Marshal(req.Context)
	if !bytes.Equal(a, w) {
		t.Errorf("the extension field holds\n%s\nwant\n%s", a, w)
	}
	if bytes.Count(body, []byte(llm.ContextField)) != 1 {
		t.Errorf("the field %s is not there once", llm.ContextField)
	}
}

// goldenPNG is a fixed 4×3 PNG, encoded without compression so that its
// bytes do not move with the compressor's.
func goldenPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 4, 3))
	for y := range 3 {
		for x := range 4 {
			img.Set(x, y, color.NRGBA{uint8(60 * x), uint8(100 * y), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A request that shows an image, as each real backend puts it on the
// wire (OpenAI: a text part, then an image_url part with a data URL;
// Gemini: a text part, then an inlineData part), kept under
// testdata/http/ as the workflows' bodies are. serve-sim, behind the
// capture, reads the image back.
func TestHTTPImageBodiesGolden(t *testing.T) {
	t.Parallel()
	srv := newCaptured(t)
	oa, err := openai.New("gpt-4o", openai.Options{APIKey: "sk-test", BaseURL: srv.srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	gm, err := gemini.New("gemini-2.5-flash", gemini.Options{APIKey: "AIza-test", BaseURL: srv.srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	pic := goldenPNG(t)
	req := llm.Request{
		System: "You plan for a tabletop robot.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which bowl is nearer the red block?", Images: []llm.Image{{
			Digest: "0123456789abcdef0123456789abcdef", MIME: llm.ImagePNG, Width: 4, Height: 3,
			Data: func() ([]byte, error) { return pic, nil },
		}}}},
	}
	for _, b := range []struct {
		dir string
		m   llm.Model
	}{{"openai", oa}, {"gemini", gm}} {
		if _, err := b.m.Generate(context.Background(), req); err != nil {
			t.Fatalf("%s: %v", b.dir, err)
		}
		goldenHTTP(t, b.dir+"/image_png.json", srv.last(t))
	}
}
