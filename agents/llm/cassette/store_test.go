package cassette_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/cassette"
)

// copyDir copies the files of src (not its subdirectories) into a new
// temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// replayAll replays every request of the fixture from dir and compares
// the replies with the fake model's.
func replayAll(t *testing.T, dir string) {
	t.Helper()
	m, err := cassette.Replay(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	live := newFake()
	for _, r := range requests {
		got, err := m.Generate(context.Background(), r.req)
		if err != nil {
			t.Errorf("%s: %v", r.why, err)
			continue
		}
		want, _ := live.Generate(context.Background(), r.req)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: replayed\n%#v\nwant\n%#v", r.why, got, want)
		}
	}
}

// testdata/v1 is a store written by the code of the first layout (one
// JSON file a request, before compression), recording the fixture's
// requests: it replays as it did, verifies, and compacts into the new
// layout without a reply changing.
func TestFirstLayoutStillReplays(t *testing.T) {
	t.Parallel()
	dir := copyDir(t, "testdata/v1")
	replayAll(t, dir)
	st, err := cassette.Verify(dir)
	if err != nil || st.Recordings != len(requests) || st.Legacy != len(requests) {
		t.Fatalf("Verify: %+v, %v; want %d recordings, all of the first layout", st, err, len(requests))
	}
	before := map[string][]byte{}
	for _, r := range requests {
		k := llm.Hash("openai:gpt-test", r.req)
		before[k], _ = os.ReadFile(filepath.Join(dir, k+".json"))
	}
	st, err = cassette.Compact(dir, cassette.CompactOptions{})
	if err != nil || st.Legacy != 0 || st.Recordings != len(requests) {
		t.Fatalf("Compact: %+v, %v; want %d recordings, none left in the first layout", st, err, len(requests))
	}
	for k, want := range before {
		got, err := cassette.ReadJSON(dir, k)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: compacted to other JSON (%v)", k, err)
		}
		if _, err := os.Stat(filepath.Join(dir, k+".json")); err == nil {
			t.Errorf("%s.json left beside its .zst", k)
		}
	}
	replayAll(t, dir)
}

// preamble opens the system prompt of every bulky request: random
// letters, so that it is like no seed dictionary's text, a recording
// compressed alone keeps most of it, and a dictionary that holds it once
// pays for itself in a store of 80 such recordings.
var preamble = func() string {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 20<<10)
	for i := range b {
		b[i] = "abcdefghijklmnopqrstuvwxyz      "[r.IntN(32)]
	}
	return string(b)
}()

// bulky returns n requests of 20 KB or so of prompt each, alike as a
// workflow's are, enough for Compact to train a dictionary on.
func bulky(n, from int) []llm.Request {
	reqs := make([]llm.Request, n)
	for j := range reqs {
		i := from + j
		reqs[j] = llm.Request{
			System: preamble + " You are a robot planner at a table of blocks and bowls. Plan with the tools; ask when the instruction is ambiguous.",
			Messages: []llm.Message{user(fmt.Sprintf("Scene %d: %s. Put the %s block in the %s bowl.", i,
				strings.Repeat(fmt.Sprintf("a %s block at (%d, %d); ", []string{"red", "blue", "green"}[i%3], i%17, i%23), 20),
				[]string{"red", "blue", "green"}[(i+1)%3], []string{"yellow", "purple"}[i%2]))},
			Tools: []llm.ToolDecl{{Name: "pick_and_place", Description: "move a block", Schema: json.RawMessage(`{"type":"object","properties":{"pick":{"type":"string"},"place":{"type":"string"}}}`)}},
		}
	}
	return reqs
}

// Compact trains a dictionary once the store is large enough, rewrites
// every recording with it, and recorders opened afterwards write with it
// too; several recorders writing one store at once (shards) lose
// nothing; and the JSON of every recording stays byte for byte.
func TestCompactAndShards(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reqs := bulky(120, 0)
	var wg sync.WaitGroup
	for shard := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, err := cassette.Record(dir, newFake())
			if err != nil {
				t.Error(err)
				return
			}
			// Overlapping shares: requests 40k..40k+59, so two shards
			// may record one request at once.
			for _, req := range reqs[shard*40 : min(len(reqs), shard*40+60)] {
				if _, err := rec.Generate(context.Background(), req); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	before := map[string]string{}
	for _, req := range reqs {
		k := llm.Hash("openai:gpt-test", req)
		data, err := cassette.ReadJSON(dir, k)
		if err != nil {
			t.Fatal(err)
		}
		before[k] = string(data)
	}
	plain, err := cassette.Verify(dir)
	if err != nil || plain.Recordings != len(reqs) || plain.Dictionaries != 0 {
		t.Fatalf("Verify after recording: %+v, %v", plain, err)
	}
	st, err := cassette.Compact(dir, cassette.CompactOptions{Prune: true})
	if err != nil || st.Recordings != len(reqs) || st.Dictionaries != 1 {
		t.Fatalf("Compact: %+v, %v; want %d recordings and one dictionary", st, err, len(reqs))
	}
	if st.Bytes >= plain.Bytes/2 {
		t.Errorf("compacted recordings hold %d bytes, compressed alone %d: the dictionary did not help", st.Bytes, plain.Bytes)
	}
	for k, want := range before {
		if got, err := cassette.ReadJSON(dir, k); err != nil || string(got) != want {
			t.Errorf("%s: compacted to other JSON (%v)", k, err)
		}
	}
	// Compacting again changes nothing.
	if again, err := cassette.Compact(dir, cassette.CompactOptions{}); err != nil || again != st {
		t.Errorf("second Compact: %+v, %v; want %+v", again, err, st)
	}
	// A recorder opened now compresses with the dictionary.
	rec, _ := cassette.Record(dir, newFake())
	more := bulky(10, 1000)
	for _, req := range more {
		if _, err := rec.Generate(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	after, err := cassette.Verify(dir)
	if err != nil || after.Recordings != len(reqs)+len(more) {
		t.Fatalf("Verify: %+v, %v", after, err)
	}
	// (Those compacted are in the dictionary's history, and smaller
	// still: compare with a recording compressed alone.)
	if per, alone := (after.Bytes-st.Bytes)/int64(len(more)), plain.Bytes/int64(len(reqs)); per > alone/2 {
		t.Errorf("a recording written after compaction holds %d bytes, one compressed alone %d: not written with the dictionary", per, alone)
	}
	play, _ := cassette.Replay(dir, "")
	for _, req := range append(reqs, more...) {
		if _, err := play.Generate(context.Background(), req); err != nil {
			t.Error(err)
		}
	}
}

// Verify names each file that would fail a replay, and what is wrong.
func TestVerifyNamesBadFiles(t *testing.T) {
	t.Parallel()
	// One store is recorded and compacted (training its dictionary is
	// most of the test's time, under the race detector seconds) and each
	// row damages a copy of its own.
	whole := t.TempDir()
	rec, _ := cassette.Record(whole, newFake())
	for _, req := range bulky(80, 0) {
		rec.Generate(context.Background(), req)
	}
	if _, err := cassette.Compact(whole, cassette.CompactOptions{}); err != nil {
		t.Fatal(err)
	}
	setup := func(t *testing.T) (dir, key string) {
		dir = t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(whole)); err != nil {
			t.Fatal(err)
		}
		return dir, llm.Hash("openai:gpt-test", bulky(1, 0)[0])
	}
	dictOf := func(dir string) string {
		m, _ := filepath.Glob(filepath.Join(dir, "dict", "*.zdict"))
		return m[0]
	}
	for _, tc := range []struct {
		why     string
		damage  func(dir, key string) (file string)
		wantErr string
	}{
		{"a file cut short", func(dir, key string) string {
			name := filepath.Join(dir, key+".zst")
			data, _ := os.ReadFile(name)
			os.WriteFile(name, data[:len(data)/2], 0o644)
			return name
		}, "unpacking with dictionary"},
		{"a recording under another request's name", func(dir, key string) string {
			other := llm.Hash("openai:gpt-test", bulky(2, 0)[1])
			name := filepath.Join(dir, key+".zst")
			data, _ := os.ReadFile(filepath.Join(dir, other+".zst"))
			os.WriteFile(name, data, 0o644)
			return name
		}, "holds request " + llm.Hash("openai:gpt-test", bulky(2, 0)[1])},
		{"a dictionary lost", func(dir, key string) string {
			d := dictOf(dir)
			os.Remove(d)
			return d
		}, "no such file"},
		{"a dictionary of another ID under the name", func(dir, key string) string {
			d := dictOf(dir)
			data, _ := os.ReadFile(d)
			other := filepath.Join(dir, "dict", "0000ffff.zdict")
			os.WriteFile(other, data, 0o644)
			return other
		}, "not the 0000ffff its name says"},
		{"a current that names no dictionary", func(dir, key string) string {
			name := filepath.Join(dir, "dict", "current")
			os.WriteFile(name, []byte("zz\n"), 0o644)
			return name
		}, "want a dictionary ID in hex"},
		// A missing dictionary is os.ErrNotExist too, which the walk once
		// took for a recording deleted since listed: every recording was
		// skipped and Verify found nothing wrong.
		{"a dictionary lost that is not current", func(dir, key string) string {
			d := dictOf(dir)
			os.Remove(filepath.Join(dir, "dict", "current"))
			os.Remove(d)
			return d
		}, "is missing: 80 recordings are compressed with it"},
		// Said once with the count, not once a recording (and once more
		// by the check of the dictionaries themselves).
		{"a dictionary damaged that is not current", func(dir, key string) string {
			d := dictOf(dir)
			os.Remove(filepath.Join(dir, "dict", "current"))
			os.WriteFile(d, []byte("not a dictionary"), 0o644)
			return d
		}, "not a zstd dictionary"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			dir, key := setup(t)
			file := tc.damage(dir, key)
			_, err := cassette.Verify(dir)
			if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Verify: %v; want an error naming %s and saying %q", err, file, tc.wantErr)
			}
			if n := strings.Count(err.Error(), file); n != 1 {
				t.Errorf("Verify named %s %d times, want once:\n%v", file, n, err)
			}
		})
	}
}

// Merge copies what the output lacks, leaves alone what it has, and
// refuses two replies to one request unless told to keep the first.
func TestMerge(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	for _, s := range []struct {
		dir  string
		reqs []llm.Request
	}{{a, bulky(60, 0)}, {b, bulky(60, 30)}} {
		rec, _ := cassette.Record(s.dir, newFake())
		for _, req := range s.reqs {
			if _, err := rec.Generate(context.Background(), req); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	st, err := cassette.Merge(out, []string{a, b}, cassette.MergeOptions{})
	if err != nil || st.Recordings != 90 || st.Duplicates != 30 || st.Conflicts != 0 {
		t.Fatalf("Merge: %+v, %v; want 90 recordings copied and 30 duplicates", st, err)
	}
	play, _ := cassette.Replay(out, "")
	for _, req := range bulky(90, 0) {
		if _, err := play.Generate(context.Background(), req); err != nil {
			t.Error(err)
		}
	}
	// Another reply to one of b's requests, recorded by another model
	// under the same name.
	c := t.TempDir()
	other := &fake{name: "openai:gpt-test", fail: nil}
	rec, _ := cassette.Record(c, replyWith{other, "another reply"})
	rec.Generate(context.Background(), bulky(1, 30)[0])
	if _, err := cassette.Merge(out, []string{c}, cassette.MergeOptions{}); err == nil || !strings.Contains(err.Error(), "another reply to its request") {
		t.Errorf("Merge of a conflicting reply: %v, want an error saying so", err)
	}
	if st, err := cassette.Merge(out, []string{c}, cassette.MergeOptions{KeepFirst: true}); err != nil || st.Conflicts != 1 {
		t.Errorf("Merge --keep-first: %+v, %v; want one conflict and no error", st, err)
	}
	if _, err := cassette.Merge(a, []string{a}, cassette.MergeOptions{}); err == nil {
		t.Error("Merge of a store into itself: no error")
	}
}

// replyWith answers every request with text.
type replyWith struct {
	*fake
	text string
}

func (r replyWith) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	reply, err := r.fake.Generate(ctx, req)
	reply.Text = r.text
	return reply, err
}
