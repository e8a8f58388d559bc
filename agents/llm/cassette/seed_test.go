package cassette

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// The seeds the package ships read, each of its own ID, one a track.
func TestShippedSeeds(t *testing.T) {
	set, err := defaultSeeds()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ids := map[uint32]bool{}
	for _, sd := range set.seeds {
		names = append(names, sd.name)
		ids[sd.id] = true
		if len(sd.shingles) == 0 {
			t.Errorf("%s: no shingles", sd.name)
		}
	}
	if want := []string{"household.zdict", "semmap.zdict", "tabletop.zdict"}; !slices.Equal(names, want) || len(ids) != len(want) {
		t.Errorf("seeds %v of %d IDs, want %v, each of its own ID", names, len(ids), want)
	}
	if len(set.common) == 0 || len(set.common) >= len(set.seeds[1].shingles)/4 {
		t.Errorf("%d shingles common to every seed (of %d in %s): want some, the JSON they share, and few", len(set.common), len(set.seeds[1].shingles), set.seeds[1].name)
	}
}

// prose returns n bytes of random letters and spaces drawn from seed:
// text no other seed's prose shares, that compresses alone to about
// three-fifths.
func prose(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcdefghijklmnopqrstuvwxyz      "[r.IntN(32)]
	}
	return string(b)
}

// kindRequest returns request i of a workflow whose prompt is kind's
// prose, 4 KB of it, and a line of its own.
func kindRequest(kind uint64, i int) llm.Request {
	return llm.Request{System: prose(kind, 4<<10), Messages: []llm.Message{{Role: llm.RoleUser, Text: fmt.Sprintf("episode %d of kind %d: %s", i, kind, prose(kind*1000+uint64(i), 40))}}}
}

// testSeeds returns a set of two seeds trained on the recordings of
// kinds 1 and 2 (as the package's are trained on a track's), named a and
// b.
func testSeeds(t testing.TB) *seedSet {
	t.Helper()
	var seeds []*seed
	for kind, name := range map[uint64]string{1: "a.zdict", 2: "b.zdict"} {
		var samples [][]byte
		for i := range 40 {
			req := kindRequest(kind, 1000+i)
			data, err := encode("m", llm.Hash("m", req), 0, req, llm.Reply{Text: "ok", FinishReason: llm.FinishStop})
			if err != nil {
				t.Fatal(err)
			}
			samples = append(samples, data)
		}
		dict, _, err := trainDict(samples, historyBytes)
		if err != nil || dict == nil {
			t.Fatalf("training seed %s: %v", name, err)
		}
		sd, err := newSeed("seed/"+name, dict)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, sd)
	}
	slices.SortFunc(seeds, func(a, b *seed) int { return bytes.Compare([]byte(a.name), []byte(b.name)) })
	return newSeedSet(seeds)
}

// seedsOf returns set as a store takes its seeds.
func seedsOf(set *seedSet) func() (*seedSet, error) {
	return func() (*seedSet, error) { return set, nil }
}

// named answers every request with the same reply, in no time: two
// recordings of one request are the same file.
type named struct{ name string }

func (m named) Name() string { return m.name }
func (m named) Generate(context.Context, llm.Request) (llm.Reply, error) {
	return llm.Reply{Text: "done", FinishReason: llm.FinishStop, InputTokens: 10, OutputTokens: 1}, nil
}

// record records reqs into dir with a recorder whose store has seeds.
func record(t testing.TB, dir string, seeds *seedSet, reqs []llm.Request) {
	t.Helper()
	st, err := openStoreSeeds(dir, seedsOf(seeds))
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{dir: dir, st: st, next: named{"m"}}
	for _, req := range reqs {
		if _, err := rec.Generate(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
}

// A recorder writing into a store with no current dictionary compresses
// each recording with the seed it resembles, copied into the store
// before the first file that names it, and a recording unlike every seed
// (another kind, or too short to tell: the JSON every recording shares
// is no likeness) with none; it makes no dictionary current, and all of
// it verifies and replays.
func TestRecorderPicksSeeds(t *testing.T) {
	t.Parallel()
	set := testSeeds(t)
	dir := t.TempDir()
	want := map[string]uint32{}
	var reqs []llm.Request
	for i := range 3 {
		for kind, id := range map[uint64]uint32{1: set.seeds[0].id, 2: set.seeds[1].id, 3: 0} {
			req := kindRequest(kind, i)
			reqs = append(reqs, req)
			want[llm.Hash("m", req)] = id
		}
	}
	tiny := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}
	reqs = append(reqs, tiny)
	want[llm.Hash("m", tiny)] = 0
	record(t, dir, set, reqs)
	for key, id := range want {
		if got := frameDict(filepath.Join(dir, key+extZstd)); got != id {
			t.Errorf("%s: written with dictionary %08x, want %08x", key, got, id)
		}
	}
	for _, sd := range set.seeds {
		if got, err := os.ReadFile(dictPath(dir, sd.id)); err != nil || !bytes.Equal(got, sd.data) {
			t.Errorf("%s: not in the store as shipped (%v)", sd.name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, dictDir, current)); err == nil {
		t.Error("recording made a dictionary current")
	}
	st, err := Verify(dir)
	if err != nil || st.Recordings != len(reqs) || st.Dictionaries != 2 {
		t.Fatalf("Verify: %+v, %v; want %d recordings and the two seeds", st, err, len(reqs))
	}
	play, err := Replay(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range reqs {
		if _, err := play.Generate(context.Background(), req); err != nil {
			t.Error(err)
		}
	}
	// A seed deleted while recording (compact --prune run too soon) is
	// put back before a file names it again.
	os.Remove(dictPath(dir, set.seeds[0].id))
	record(t, dir, set, []llm.Request{kindRequest(1, 99)})
	if _, err := Verify(dir); err != nil {
		t.Errorf("Verify after a seed was deleted and a recording made with it: %v", err)
	}
}

// A store is the same bytes whoever records it: one recorder in turn,
// one recorder called from four goroutines at once, or three recorders
// (shards) at once, in other orders and overlapping.
func TestRecordingIsDeterministic(t *testing.T) {
	t.Parallel()
	set := testSeeds(t)
	var reqs []llm.Request
	for i := range 12 {
		reqs = append(reqs, kindRequest(uint64(1+i%3), i))
	}
	inTurn := t.TempDir()
	record(t, inTurn, set, reqs)

	goroutines := t.TempDir()
	st, _ := openStoreSeeds(goroutines, seedsOf(set))
	rec := &Recorder{dir: goroutines, st: st, next: named{"m"}}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := len(reqs) - 1 - g; i >= 0; i -= 4 {
				if _, err := rec.Generate(context.Background(), reqs[i]); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()

	shards := t.TempDir()
	for s := range 3 {
		wg.Go(func() {
			share := slices.Clone(reqs[s*4 : min(len(reqs), s*4+6)])
			slices.Reverse(share)
			record(t, shards, set, share)
		})
	}
	wg.Wait()

	want := storeFiles(t, inTurn)
	for name, dir := range map[string]string{"four goroutines": goroutines, "three shards": shards} {
		got := storeFiles(t, dir)
		if len(got) != len(want) {
			t.Errorf("%s: %d files, recorded in turn %d", name, len(got), len(want))
		}
		for f, data := range want {
			if !bytes.Equal(got[f], data) {
				t.Errorf("%s: %s differs from the one recorded in turn", name, f)
			}
		}
	}
}

// storeFiles returns the bytes of every file of the store in dir, by
// path within it.
func storeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Compact weighs what a dictionary costs the store: a store its seed
// keeps well is left as recorded, file for file; with --prune, which
// would delete the seed, the seed's bytes count, and a store this small
// keeps least with no dictionary at all. Either way the store keeps no
// more than it did.
func TestCompactWeighsDictionaries(t *testing.T) {
	t.Parallel()
	set := testSeeds(t)
	dir := t.TempDir()
	var reqs []llm.Request
	for i := range 30 {
		reqs = append(reqs, kindRequest(1, i))
	}
	record(t, dir, set, reqs)
	recorded, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := storeFiles(t, dir)

	compact := func(prune bool) Stats {
		t.Helper()
		s, err := openStoreSeeds(dir, seedsOf(set))
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.compact(CompactOptions{Prune: prune})
		if err != nil {
			t.Fatal(err)
		}
		if st.StoreBytes() > recorded.StoreBytes() {
			t.Errorf("compacted (prune %v) the store keeps %d bytes, as recorded %d", prune, st.StoreBytes(), recorded.StoreBytes())
		}
		return st
	}
	if st := compact(false); st != recorded {
		t.Errorf("Compact: %+v, want the store as recorded, %+v", st, recorded)
	}
	for name, data := range storeFiles(t, dir) {
		if !bytes.Equal(files[name], data) {
			t.Errorf("Compact rewrote %s", name)
		}
	}
	if st := compact(true); st.Dictionaries != 0 || st.Recordings != len(reqs) {
		t.Errorf("Compact --prune: %+v; want %d recordings and no dictionary", st, len(reqs))
	}
	for _, req := range reqs {
		if id := frameDict(filepath.Join(dir, llm.Hash("m", req)+extZstd)); id != 0 {
			t.Errorf("after Compact --prune a recording names dictionary %08x", id)
		}
	}
	if _, err := Verify(dir); err != nil {
		t.Error(err)
	}
}
