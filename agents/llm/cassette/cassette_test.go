package cassette_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/cassette"
)

// fake answers every request with a reply derived from it, holds an API
// key as a real backend does, and counts its calls.
type fake struct {
	name  string
	key   string
	calls atomic.Int64
	fail  error // if set, every call fails with it
}

func (f *fake) Name() string { return f.name }

func (f *fake) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	f.calls.Add(1)
	if f.fail != nil {
		return llm.Reply{}, f.fail
	}
	last := ""
	if n := len(req.Messages); n > 0 {
		last = req.Messages[n-1].Text
	}
	r := llm.Reply{
		Text: "re: " + last, FinishReason: llm.FinishStop,
		InputTokens: len(last), OutputTokens: 3, Latency: 1234567 * time.Nanosecond,
	}
	if len(req.Tools) > 0 {
		r.FinishReason = llm.FinishToolCalls
		r.ToolCalls = []llm.ToolCall{
			{ID: "c1", Name: req.Tools[0].Name, Args: json.RawMessage(`{"pick":"red <block> & co","place":"bowl"}`)},
			{ID: "c2", Name: "spaced", Args: json.RawMessage("{ \"a\" : [1, 2] }\n")},
			{ID: "c3", Name: "malformed", Args: json.RawMessage(`{"pick": "red`)},
			{ID: "c4", Name: "no args"},
			{ID: "c5", Name: "empty args", Args: json.RawMessage{}},
			{ID: "c6", Name: "escaped", Args: json.RawMessage(`{"s":"\u003c\u2028é"}`)},
		}
	}
	return r, nil
}

func newFake() *fake { return &fake{name: "openai:gpt-test", key: os.Getenv("OPENAI_API_KEY")} }

func user(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Text: text} }

// requests covers the shapes a workflow sends, each for a reason.
var requests = []struct {
	why string
	req llm.Request
}{
	{"a plain prompt", llm.Request{System: "You plan.", Messages: []llm.Message{user("put the red block in the bowl")}}},
	{"another prompt gets another file", llm.Request{System: "You plan.", Messages: []llm.Message{user("put the blue block in the bowl")}}},
	{"tools and a reply with tool calls of every shape", llm.Request{
		Messages: []llm.Message{user("act")},
		Tools:    []llm.ToolDecl{{Name: "pick_and_place", Description: "move", Schema: json.RawMessage(`{"type": "object",  "properties": {}}`)}},
	}},
	{"a malformed tool call echoed back", llm.Request{Messages: []llm.Message{
		user("act"),
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c3", Name: "pick_and_place", Args: json.RawMessage(`{"pick": "red`)}}},
		{Role: llm.RoleTool, ToolCallID: "c3", Name: "pick_and_place", Text: "error: bad arguments"},
	}}},
	{"structured output", llm.Request{Messages: []llm.Message{user("rank")}, ResponseSchema: json.RawMessage(`{"type":"array","items":{"type":"string"}}`)}},
	{"sampling: the sample number is part of the key", llm.Request{Messages: []llm.Message{user("rank")}, Temperature: 0.7, Sample: 2, Seed: 42, MaxOutputTokens: 256}},
	{"text that JSON escapes", llm.Request{Messages: []llm.Message{user("quote \" back\\slash <tag> & \u2028 é 🤖")}}},
}

func TestRecordThenReplay(t *testing.T) {
	dir := t.TempDir()
	live := newFake()
	rec, err := cassette.Record(dir, live)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name() != live.Name() {
		t.Errorf("Recorder Name %q, want the live model's %q", rec.Name(), live.Name())
	}
	ctx := llm.WithEpisode(context.Background(), "ep-1")
	want := make([]llm.Reply, len(requests))
	for i, r := range requests {
		if want[i], err = rec.Generate(ctx, r.req); err != nil {
			t.Fatalf("recording %s: %v", r.why, err)
		}
	}
	if c := live.calls.Load(); c != int64(len(requests)) {
		t.Fatalf("%d live calls while recording, want %d", c, len(requests))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	recordings, _ := filepath.Glob(filepath.Join(dir, "*.zst"))
	if len(recordings) != len(requests) || len(files) > len(requests)+1 {
		t.Errorf("%d recordings in the cassette, want %d, and nothing else but dict/: %v", len(recordings), len(requests), files)
	}

	t.Run("replay", func(t *testing.T) {
		m, err := cassette.Replay(dir, live.Name())
		if err != nil {
			t.Fatal(err)
		}
		if m.Name() != live.Name() {
			t.Errorf("Player Name %q, want %q", m.Name(), live.Name())
		}
		for i, r := range requests {
			got, err := m.Generate(ctx, r.req)
			if err != nil {
				t.Errorf("%s: %v", r.why, err)
				continue
			}
			if !reflect.DeepEqual(got, want[i]) {
				t.Errorf("%s: replayed\n%#v\nrecorded\n%#v", r.why, got, want[i])
			}
		}
		if c := m.(*cassette.Player).Counts(); c != (cassette.Counts{Hits: int64(len(requests))}) {
			t.Errorf("counts %+v, want %d hits and no miss", c, len(requests))
		}
		if c := live.calls.Load(); c != int64(len(requests)) {
			t.Errorf("replay reached the live model: %d calls", c)
		}
	})

	t.Run("record resumes", func(t *testing.T) {
		// A second recording run over the same cassette pays for nothing
		// already on file.
		again := newFake()
		rec2, err := cassette.Record(dir, again)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range requests {
			got, err := rec2.Generate(ctx, r.req)
			if err != nil || !reflect.DeepEqual(got, want[i]) {
				t.Errorf("%s: served %+v, %v; want the recorded reply", r.why, got, err)
			}
		}
		if again.calls.Load() != 0 {
			t.Errorf("%d live calls for requests on file, want 0", again.calls.Load())
		}
		if c := rec2.(*cassette.Recorder).Counts(); c != (cassette.Counts{Hits: int64(len(requests))}) {
			t.Errorf("counts %+v", c)
		}
	})
}

func TestReplayMiss(t *testing.T) {
	dir := t.TempDir()
	live := newFake()
	rec, _ := cassette.Record(dir, live)
	rec.Generate(context.Background(), requests[0].req)

	for _, tt := range []struct {
		name, why, model, episode string
		req                       llm.Request
		tail                      string // what the miss adds after the directory
	}{
		{"new request", "a request never recorded", live.Name(), "tabletop/pick_place/absence/7", requests[1].req, ""},
		{"other model", "the key holds the model name: another model's replay misses, and says the store holds none of its recordings",
			"gemini:gemini-test", "semmap/q3", requests[0].req,
			`, which holds no recording of model "gemini:gemini-test" (it holds recordings of openai:gpt-test)`},
		{"no episode", "a call outside an episode still names the request", live.Name(), "", requests[2].req, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := cassette.Replay(dir, tt.model)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tt.episode != "" {
				ctx = llm.WithEpisode(ctx, tt.episode)
			}
			_, err = m.Generate(ctx, tt.req)
			hash := llm.Hash(tt.model, tt.req)
			var miss *cassette.MissError
			if !errors.As(err, &miss) {
				t.Fatalf("error %v, want a *MissError (%s)", err, tt.why)
			}
			want := "cassette miss: request " + hash + " (episode " + tt.episode + ") not in " + dir
			if tt.episode == "" {
				want = "cassette miss: request " + hash + " (no episode) not in " + dir
			}
			want += tt.tail
			if err.Error() != want {
				t.Errorf("error %q\nwant  %q", err, want)
			}
			if c := m.(*cassette.Player).Counts(); c != (cassette.Counts{Misses: 1}) {
				t.Errorf("counts %+v, want one miss", c)
			}
			if llm.KindOf(err).Retryable() {
				t.Error("a miss must not be retried")
			}
			if !llm.IsInfra(err) {
				t.Error("a miss is an infrastructure failure: the episode must be re-run, not scored")
			}
		})
	}
}

func TestErrorsAreNotRecorded(t *testing.T) {
	dir := t.TempDir()
	live := newFake()
	live.fail = &llm.Error{Kind: llm.KindServer, Status: 503, Err: errors.New("overloaded")}
	rec, _ := cassette.Record(dir, live)
	for range 2 {
		if _, err := rec.Generate(context.Background(), requests[0].req); llm.KindOf(err) != llm.KindServer {
			t.Errorf("error %v, want the live model's", err)
		}
	}
	if live.calls.Load() != 2 {
		t.Errorf("%d live calls, want 2: a failure is tried again, not served", live.calls.Load())
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("a failure left files: %v", files)
	}
}

func TestCassetteHoldsNoSecret(t *testing.T) {
	const secret = "sk-test-SECRET"
	t.Setenv("OPENAI_API_KEY", secret)
	dir := t.TempDir()
	live := newFake()
	if live.key != secret {
		t.Fatal("the fake did not pick up the key")
	}
	rec, _ := cassette.Record(dir, live)
	for _, r := range requests {
		if _, err := rec.Generate(llm.WithEpisode(context.Background(), "e"), r.req); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if filepath.Base(filepath.Dir(path)) == "dict" {
			// A seed dictionary (the fixture's requests are like the
			// tabletop's), from the package, not from the recordings.
			data, err := os.ReadFile(path)
			if err != nil || !strings.HasSuffix(path, ".zdict") || bytes.Contains(data, []byte(secret)) {
				t.Errorf("%s: not a dictionary, or holds the key (%v)", path, err)
			}
			return nil
		}
		n++
		data, err := cassette.ReadFile(path)
		if err != nil {
			return err
		}
		for _, bad := range []string{secret, "Authorization", "Bearer", "api_key", "OPENAI_API_KEY"} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s holds %q", path, bad)
			}
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range top {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(keys, []string{"hash", "model", "reply", "request"}) {
			t.Errorf("%s has fields %v, want exactly hash, model, reply, request", path, keys)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(requests) {
		t.Errorf("%d files, want %d (no temporary file left behind)", n, len(requests))
	}
}

func TestCorruptFiles(t *testing.T) {
	const model = "openai:gpt-test"
	req := requests[0].req
	hash := llm.Hash(model, req)
	// A good file to corrupt.
	good := func(t *testing.T) map[string]any {
		dir := t.TempDir()
		rec, _ := cassette.Record(dir, newFake())
		rec.Generate(context.Background(), req)
		data, err := cassette.ReadJSON(dir, hash)
		if err != nil {
			t.Fatal(err)
		}
		var f map[string]any
		json.Unmarshal(data, &f)
		return f
	}
	edit := func(change func(f map[string]any)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			f := good(t)
			change(f)
			data, _ := json.Marshal(f)
			return data
		}
	}
	raw := func(s string) func(*testing.T) []byte { return func(*testing.T) []byte { return []byte(s) } }
	otherHash := llm.Hash(model, requests[1].req)
	tests := []struct {
		name, why string
		data      func(t *testing.T) []byte
		wantErr   string
	}{
		{"empty", "an empty file is said to be empty, not a file without a model", raw(""), "empty (0 bytes), not a recording"},
		{"blank", "white space is empty too", raw(" \n"), "empty (2 bytes), not a recording"},
		{"binary", "bytes that are not JSON are named as such", raw("\x89PNG\r\n\x1a\n\x00\x00"), "not valid JSON at byte 1 (not a recording: binary, or cut short?)"},
		{"truncated", "a cut-off file says where", raw(`{"model":"openai:gpt-test","hash":`), "not valid JSON"},
		{"array", "the file must be an object", raw(`[1,2]`), "not a cassette"},
		{"wrong type", "fields have types", raw(`{"model":1}`), "not a cassette"},
		{"no model", "the model is required", edit(func(f map[string]any) { delete(f, "model") }), `no "model"`},
		{"no hash", "the hash is required", edit(func(f map[string]any) { delete(f, "hash") }), `no "hash"`},
		{"no reply", "the reply is required", edit(func(f map[string]any) { delete(f, "reply") }), `no "reply"`},
		{"null reply", "null is no reply", edit(func(f map[string]any) { f["reply"] = nil }), `no "reply"`},
		{"other hash", "a file under the wrong name", edit(func(f map[string]any) { f["hash"] = otherHash }), "holds request " + otherHash},
		{"other model", "a file from another model", edit(func(f map[string]any) { f["model"] = "gemini:x" }), `recorded from model "gemini:x"`},
		{"edited request", "a request changed by hand no longer matches its hash", edit(func(f map[string]any) {
			f["request"].(map[string]any)["system"] = "edited"
		}), "its request hashes to"},
		{"both args", "a tool call has args or args_text, not both", edit(func(f map[string]any) {
			f["reply"].(map[string]any)["tool_calls"] = []any{map[string]any{"id": "1", "name": "x", "args": map[string]any{}, "args_text": "{"}}
		}), `both "args" and "args_text"`},
		{"negative tokens", "usage cannot be negative", edit(func(f map[string]any) {
			f["reply"].(map[string]any)["input_tokens"] = -1
		}), "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, hash+".json")
			data := tt.data(t)
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
			m, _ := cassette.Replay(dir, model)
			_, err := m.Generate(context.Background(), req)
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one naming %s and saying %q (%s)", err, name, tt.wantErr, tt.why)
			}
			if !llm.IsInfra(err) || llm.KindOf(err) != llm.KindCassette {
				t.Errorf("error %v is of kind %v, want a cassette failure, which is infrastructure", err, llm.KindOf(err))
			}
			// Record neither serves it, nor calls the model, nor
			// overwrites it.
			live := newFake()
			rec, _ := cassette.Record(dir, live)
			if _, err := rec.Generate(context.Background(), req); err == nil || live.calls.Load() != 0 {
				t.Errorf("Record over a corrupt file: error %v after %d calls, want an error and none", err, live.calls.Load())
			}
			if after, _ := os.ReadFile(name); string(after) != string(data) {
				t.Error("Record changed the corrupt file")
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	for _, tt := range []struct {
		name, why string
		open      func() (llm.Model, error)
	}{
		{"record into a file", "the cassette must be a directory", func() (llm.Model, error) { return cassette.Record(filepath.Join(notDir, "x"), newFake()) }},
		{"record nothing", "a recorder needs a model", func() (llm.Model, error) { return cassette.Record(dir, nil) }},
		{"replay a missing dir", "a cassette that is not there", func() (llm.Model, error) { return cassette.Replay(filepath.Join(dir, "none"), "m") }},
		{"replay a file", "a cassette is a directory", func() (llm.Model, error) { return cassette.Replay(notDir, "m") }},
		{"replay with no model", "a cassette with no recordings cannot name its model", func() (llm.Model, error) { return cassette.Replay(dir, "") }},
	} {
		if m, err := tt.open(); err == nil || m != nil {
			t.Errorf("%s: got %v, %v; want an error (%s)", tt.name, m, err, tt.why)
		}
	}
	// Record creates a missing directory.
	if _, err := cassette.Record(filepath.Join(dir, "a", "b"), newFake()); err != nil {
		t.Errorf("Record into a new directory: %v", err)
	}
}

func TestUnhashableRequest(t *testing.T) {
	dir := t.TempDir()
	rec, _ := cassette.Record(dir, newFake())
	play, _ := cassette.Replay(dir, "openai:gpt-test")
	req := llm.Request{Temperature: math.NaN()}
	for _, m := range []llm.Model{rec, play} {
		if _, err := m.Generate(context.Background(), req); err == nil {
			t.Errorf("%T: a NaN temperature gave no error", m)
		}
	}
}

func TestRecordConcurrent(t *testing.T) {
	dir := t.TempDir()
	live := newFake()
	rec, _ := cassette.Record(dir, live)
	var wg sync.WaitGroup
	for i := range 48 {
		wg.Go(func() {
			if _, err := rec.Generate(context.Background(), requests[i%len(requests)].req); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	m, _ := cassette.Replay(dir, live.Name())
	for _, r := range requests {
		if _, err := m.Generate(context.Background(), r.req); err != nil {
			t.Errorf("%s: %v", r.why, err)
		}
	}
	c := rec.(*cassette.Recorder).Counts()
	if c.Hits+c.Misses != 48 || c.Misses != live.calls.Load() {
		t.Errorf("counts %+v with %d live calls", c, live.calls.Load())
	}
}

func TestReplayReadsModelName(t *testing.T) {
	one := t.TempDir()
	live := newFake()
	rec, _ := cassette.Record(one, live)
	rec.Generate(context.Background(), requests[0].req)
	rec.Generate(context.Background(), requests[1].req)

	two := t.TempDir()
	for _, name := range []string{"openai:a", "gemini:b"} {
		rec, _ := cassette.Record(two, &fake{name: name})
		rec.Generate(context.Background(), requests[0].req)
	}
	bad := t.TempDir()
	// Named as a recording is (32 hex digits): a file of another name is
	// no recording, and passed over.
	badFile := filepath.Join(bad, "0123"+strings.Repeat("0", 28)+".json")
	os.WriteFile(badFile, []byte("{"), 0o644)

	for _, tt := range []struct {
		name, why, dir string
		wantName       string // "" when an error is wanted
		wantErr        string
	}{
		{"one model", "the files name the model the cassette was recorded from", one, live.Name(), ""},
		{"two models", "a cassette of several models cannot choose, and says how to name one", two, "", "2 models (gemini:b, openai:a); name the one to replay, as in replay:" + two + "=gemini:b"},
		{"empty", "an empty cassette names no model", t.TempDir(), "", "holds no recordings"},
		{"unreadable file", "a file without a model is named", bad, "", badFile},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := cassette.Replay(tt.dir, "")
			if tt.wantName == "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want one containing %q (%s)", err, tt.wantErr, tt.why)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v (%s)", err, tt.why)
			}
			if m.Name() != tt.wantName {
				t.Errorf("Name %q, want %q", m.Name(), tt.wantName)
			}
			if _, err := m.Generate(context.Background(), requests[1].req); err != nil {
				t.Error(err)
			}
		})
	}
}

// A model named to Replay picks its recordings out of a store that holds
// several models' (which replay:DIR alone refuses), and is taken at its
// word: the store is not read for it until a miss asks why.
func TestReplayNamedModelOfSeveral(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	replies := map[string]string{}
	for _, name := range []string{"openai:a", "gemini:b"} {
		rec, _ := cassette.Record(dir, answersAs{name})
		r, err := rec.Generate(context.Background(), requests[0].req)
		if err != nil {
			t.Fatal(err)
		}
		replies[name] = r.Text
	}
	for name, text := range replies {
		m, err := cassette.Replay(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Name() != name {
			t.Errorf("Name %q, want %q", m.Name(), name)
		}
		r, err := m.Generate(context.Background(), requests[0].req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Text != text {
			t.Errorf("%s replayed %q, want its own recording %q", name, r.Text, text)
		}
		// A request not recorded for a model the store holds: a plain miss.
		_, err = m.Generate(context.Background(), requests[1].req)
		var miss *cassette.MissError
		if !errors.As(err, &miss) || miss.Model != "" || strings.Contains(err.Error(), "holds no recording") {
			t.Errorf("%s, a request not recorded: %v, want a plain miss", name, err)
		}
	}
}

// A model named to Replay is taken at its word: a store none of whose
// recordings reads, which replay:DIR alone refuses for want of a name,
// opens, and its miss says the store holds no readable recording.
func TestReplayNamedDoesNotReadTheStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, strings.Repeat("ab", 16)+".json"), []byte("{"), 0o644)
	if _, err := cassette.Replay(dir, ""); err == nil {
		t.Fatal("replay:DIR of a store with no readable recording opened; want it refused for want of a model name")
	}
	m, err := cassette.Replay(dir, "openai:a")
	if err != nil {
		t.Fatalf("replay:DIR=MODEL read the store to open: %v", err)
	}
	_, err = m.Generate(context.Background(), requests[0].req)
	var miss *cassette.MissError
	if !errors.As(err, &miss) || !strings.HasSuffix(err.Error(), `which holds no recording of model "openai:a" (it holds no readable recording)`) {
		t.Errorf("error %v, want a miss saying the store holds no readable recording", err)
	}
}

// answersAs is a model whose every reply is its name, so that whose
// recording a replay served shows in the reply.
type answersAs struct{ name string }

func (a answersAs) Name() string { return a.name }
func (a answersAs) Generate(context.Context, llm.Request) (llm.Reply, error) {
	return llm.Reply{Text: "I am " + a.name, FinishReason: llm.FinishStop}, nil
}

// A damaged recording (empty, binary, cut short) in a cassette whose
// model is read from its files costs the calls that need it, each an
// infrastructure error naming the file, and not the whole replay: a
// replay of thousands of recordings should not stop at the first one a
// disk or an editor damaged. Only a cassette none of whose files reads
// has no model to take, and that error names the first of them.
func TestReplayPassesOverDamagedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	live := newFake()
	rec, _ := cassette.Record(dir, live)
	for _, r := range requests[:3] {
		if _, err := rec.Generate(context.Background(), r.req); err != nil {
			t.Fatal(err)
		}
	}
	empty := filepath.Join(dir, llm.Hash(live.Name(), requests[1].req)+".zst")
	binary := filepath.Join(dir, llm.Hash(live.Name(), requests[2].req)+".zst")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(binary, []byte("\x00\xff\xfe binary"), 0o644)
	m, err := cassette.Replay(dir, "")
	if err != nil {
		t.Fatalf("Replay over two damaged files: %v", err)
	}
	if m.Name() != live.Name() {
		t.Errorf("Name %q, want %q", m.Name(), live.Name())
	}
	if _, err := m.Generate(context.Background(), requests[0].req); err != nil {
		t.Errorf("a whole recording beside damaged ones: %v", err)
	}
	for _, tc := range []struct{ file, want string }{{empty, "empty (0 bytes)"}, {binary, "not a zstd frame"}} {
		req := requests[1].req
		if tc.file == binary {
			req = requests[2].req
		}
		_, err := m.Generate(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), tc.file) || !strings.Contains(err.Error(), tc.want) || llm.KindOf(err) != llm.KindCassette {
			t.Errorf("the call of %s: %v, want a cassette failure naming the file and saying %q", tc.file, err, tc.want)
		}
	}
	bad := t.TempDir()
	a, b := strings.Repeat("a", 32)+".json", strings.Repeat("b", 32)+".json"
	os.WriteFile(filepath.Join(bad, a), nil, 0o644)
	os.WriteFile(filepath.Join(bad, b), []byte("\x00"), 0o644)
	if _, err := cassette.Replay(bad, ""); err == nil || !strings.Contains(err.Error(), "none of its 2 recordings can be read") || !strings.Contains(err.Error(), filepath.Join(bad, a)+": empty") {
		t.Errorf("a cassette of damaged files alone: %v", err)
	}
}

// TestSignaturesAndFinishSurvive: a thought signature and the provider's
// finish reason are recorded and replayed byte for byte, so that a replayed
// Gemini 3 conversation sends back what the live one did.
func TestSignaturesAndFinishSurvive(t *testing.T) {
	sig := []byte{0, 0xc0, 0xff, '"', 'x'}
	live := &signer{reply: llm.Reply{Text: "t", FinishReason: llm.FinishToolCalls, ProviderFinish: "STOP",
		ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage(`{}`), Signature: sig}}}}
	dir := t.TempDir()
	req := llm.Request{Messages: []llm.Message{user("go"),
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "z", Name: "f", Args: json.RawMessage(`{}`), Signature: []byte("earlier")}}},
		{Role: llm.RoleTool, ToolCallID: "z", Text: "ok"}}}
	rec, _ := cassette.Record(dir, live)
	if _, err := rec.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	play, err := cassette.Replay(dir, live.Name())
	if err != nil {
		t.Fatal(err)
	}
	got, err := play.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("replaying a request whose history is signed: %v", err)
	}
	if got.ProviderFinish != "STOP" || len(got.ToolCalls) != 1 || !bytes.Equal(got.ToolCalls[0].Signature, sig) {
		t.Errorf("replayed %+v, want the provider finish and the signature %q", got, sig)
	}
}

type signer struct{ reply llm.Reply }

func (s *signer) Name() string                                             { return "gemini:g" }
func (s *signer) Generate(context.Context, llm.Request) (llm.Reply, error) { return s.reply, nil }
