package llm_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// TestHashPinned: the hashes of a set of requests, computed before the
// hasher reused its buffers and stopped copying the request. Cassettes
// are keyed by these hashes, so a change to how a request is fed to
// SHA-256 must leave every one alone.
func TestHashPinned(t *testing.T) {
	long := strings.Repeat("the red block is left of the blue bowl; ", 400) // longer than any scratch buffer
	call := func(args string, sig []byte) llm.ToolCall {
		return llm.ToolCall{ID: "c1", Name: "pick_and_place", Args: json.RawMessage(args), Signature: sig}
	}
	tests := []struct {
		name, why string
		model     string
		req       llm.Request
		want      string
	}{
		{"empty", "the zero request: only counts and the header", "sim", llm.Request{}, "c720c1b1ea23c3b173118e184f4fac97"},
		{"user", "one user turn, system prompt, temperature and seed", "sim:weak",
			llm.Request{System: "You plan.", Messages: []llm.Message{{Role: llm.RoleUser, Text: "put the red block in the bowl"}}, Temperature: 0.7, Seed: 42},
			"de8b9d747e5cab7da36bfdbe84ded3d7"},
		{"long", "a prompt longer than the hasher's scratch buffer, cut across chunks", "sim",
			llm.Request{System: long, Messages: []llm.Message{{Role: llm.RoleUser, Text: long + "x"}}},
			"815458c3fd9056ae2f207aae3b74edb7"},
		{"tools", "tool declarations with a schema to normalise, and a response schema", "openai:gpt",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}},
				Tools:          []llm.ToolDecl{{Name: "f", Description: "does f", Schema: json.RawMessage(`{"type": "object", "properties": {"b": {}, "a": {}}}`)}, {Name: "g"}},
				ResponseSchema: json.RawMessage(`{ "type" : "string" }`), Sample: 3, MaxOutputTokens: 512},
			"aff60cdf11b785a3579f162193d07452"},
		{"calls", "an assistant turn with calls (valid and malformed arguments) and a tool reply", "sim",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"},
				{Role: llm.RoleAssistant, Text: "ok", ToolCalls: []llm.ToolCall{call(`{"pick": "red block", "place": "bowl"}`, nil), call(`{"pick":`, nil)}},
				{Role: llm.RoleTool, ToolCallID: "c1", Name: "pick_and_place", Text: "done"}}},
			"332f96627678f616f5bd46ad0d7408dd"},
		{"signed", "a call with a signature, which counts", "gemini:g",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call(`{}`, []byte("sig")), call(`[1, 2]`, nil)}}}},
			"69c233b3154d9e6eb58c0cad326c3bb1"},
		{"utf8", "invalid UTF-8 in text and in arguments", "sim",
			llm.Request{System: "caf\xe9", Messages: []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("\xff", nil)}}}, Temperature: -1, Seed: -5, Sample: -1},
			"6765654cf71db428f58fd113f113f4f7"},
	}
	for _, tc := range tests {
		if tc.req.HasImages() {
			t.Fatalf("%s: TestHashPinned's requests are those made before images existed", tc.name)
		}
		if got := llm.Hash(tc.model, tc.req); got != tc.want {
			t.Errorf("%s (%s): hash %s, want %s", tc.name, tc.why, got, tc.want)
		}
	}
}

// TestHashConcurrent: the pooled hashers are not shared between calls;
// hashes computed at once, of requests of different lengths, are the ones
// computed one at a time.
func TestHashConcurrent(t *testing.T) {
	reqs := make([]llm.Request, 16)
	want := make([]string, len(reqs))
	for i := range reqs {
		reqs[i] = llm.Request{System: strings.Repeat("s", 1000*i), Messages: []llm.Message{{Role: llm.RoleUser, Text: strings.Repeat("u", 700*i)}}, Seed: int64(i)}
		want[i] = llm.Hash("sim", reqs[i])
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			for k := range 50 {
				i := (g + k) % len(reqs)
				if got := llm.Hash("sim", reqs[i]); got != want[i] {
					done <- fmt.Errorf("request %d hashed %s at once, %s alone", i, got, want[i])
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkHash hashes a planning request of the tabletop track's size: a
// 6 KB prompt, a reply with a call, two tools with schemas.
func BenchmarkHash(b *testing.B) {
	req := llm.Request{System: strings.Repeat("You are a robot planner. ", 250),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: strings.Repeat(`{"id":"red block 1","attributes":{"color":"red"}},`, 40)},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "pick_and_place", Args: json.RawMessage(`{"pick":"red block 1","place":"blue bowl 1"}`)}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "pick_and_place", Text: "done"}},
		Tools: []llm.ToolDecl{{Name: "pick_and_place", Description: "moves a block", Schema: json.RawMessage(`{"type":"object","properties":{"pick":{"type":"string"},"place":{"type":"string"}}}`)},
			{Name: "ask_user", Description: "asks the user", Schema: json.RawMessage(`{"type":"object","properties":{"question":{"type":"string"}}}`)}}}
	b.ReportAllocs()
	for b.Loop() {
		llm.Hash("sim", req)
	}
}

// TestHashImages: an image counts by its digest, type and size, never by
// its bytes (which are not made), and where it sits; the request without
// it hashes as before.
func TestHashImages(t *testing.T) {
	t.Parallel()
	made := 0
	img := func(digest string) llm.Image {
		return llm.Image{Digest: digest, MIME: llm.ImagePNG, Width: 640, Height: 480,
			Data: func() ([]byte, error) { made++; return []byte("png"), nil }}
	}
	base := llm.Request{System: "You plan.", Messages: []llm.Message{{Role: llm.RoleUser, Text: "put the red block in the bowl"}}, Temperature: 0.7, Seed: 42}
	plain := llm.Hash("sim:weak", base)
	if plain != "de8b9d747e5cab7da36bfdbe84ded3d7" {
		t.Fatalf("the request without images hashes %s, not its pinned hash", plain)
	}
	with := func(edit func(*llm.Request)) string {
		r := base
		r.Messages = []llm.Message{base.Messages[0]}
		r.Messages[0].Images = []llm.Image{img("00112233445566778899aabbccddeeff")}
		edit(&r)
		return llm.Hash("sim:weak", r)
	}
	one := with(func(*llm.Request) {})
	seen := map[string]string{plain: "no image", one: "one image"}
	for why, edit := range map[string]func(*llm.Request){
		"another digest": func(r *llm.Request) { r.Messages[0].Images[0].Digest = "ffeeddccbbaa99887766554433221100" },
		"another type":   func(r *llm.Request) { r.Messages[0].Images[0].MIME = llm.ImageJPEG },
		"another width":  func(r *llm.Request) { r.Messages[0].Images[0].Width = 320 },
		"another height": func(r *llm.Request) { r.Messages[0].Images[0].Height = 240 },
		"a second image": func(r *llm.Request) { r.Messages[0].Images = append(r.Messages[0].Images, img("0123456789abcdef")) },
		"the image a turn later": func(r *llm.Request) {
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Text: "", Images: r.Messages[0].Images})
			r.Messages[0].Images = nil
		},
	} {
		h := with(edit)
		if prev, ok := seen[h]; ok {
			t.Errorf("%s hashes as %s", why, prev)
		}
		seen[h] = why
	}
	if again := with(func(r *llm.Request) { r.Messages[0].Images[0].Data = nil }); again != one {
		t.Error("the image's bytes (or their maker) changed the hash")
	}
	if made != 0 {
		t.Errorf("hashing made the image's bytes %d times", made)
	}
}
