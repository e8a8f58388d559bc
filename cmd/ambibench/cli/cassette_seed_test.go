package cli

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/klauspost/compress/zstd"
)

// seedDir holds the seed dictionaries package cassette ships.
var seedDir = filepath.Join("..", "..", "..", "agents", "llm", "cassette", "seed")

// seedCorpus is the run whose recordings a track's seed dictionary is
// trained on: every agent of the track (those that call no model cost
// little), one episode a cell, the simulated model, at a seed other than
// the default one, so that a recording made at the default (as
// BenchmarkCassetteStore's) is not among them (the household and semmap
// episodes are their datasets', the same at any seed).
func seedCorpus(track, tapes, out string) []string {
	return []string{"run", "--track", track, "--agents", "all", "--episodes", "1", "--seed", "7", "--quiet",
		"--model", "record:" + tapes + "=sim", "--out", out}
}

// staleRatio is how much larger than a seed trained afresh the shipped
// seed may keep its corpus before it is stale: a prompt changed since it
// was trained.
const staleRatio = 1.25

// The seed dictionaries: a run recording into a new store compresses
// each recording with its track's seed, which it copies into the store,
// and names no current dictionary; the seed keeps the recordings in a
// third or less of the bytes they take compressed alone; and it is not
// stale: recorded again, its corpus kept in at most staleRatio times what
// a seed trained on it now would keep it in. With -update the seeds are
// trained afresh and written (the same bytes each time: a seed is trained
// without the replies' latencies, the one thing two recordings of a run
// do not share).
func TestSeedDictionaries(t *testing.T) {
	if testing.Short() {
		// It records three tracks' corpora on one goroutine a run, as
		// make test has just done without the race detector; under it
		// (make test-long's -short pass) that took a minute and a half.
		t.Skip("records whole corpora; run without -short")
	}
	t.Parallel()
	for _, track := range []string{"tabletop", "household", "semmap"} {
		t.Run(track, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tapes := filepath.Join(dir, "tapes")
			if _, errOut, err := runCLI(t, seedCorpus(track, tapes, filepath.Join(dir, "run"))...); err != nil {
				t.Fatalf("recording the corpus: %v\n%s", err, errOut)
			}
			fresh, err := cassette.TrainSeed(tapes)
			if err != nil || fresh == nil {
				t.Fatalf("training a seed: %v (%d bytes)", err, len(fresh))
			}
			name := filepath.Join(seedDir, track+".zdict")
			if *update {
				if err := os.WriteFile(name, fresh, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			shipped, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (train the seeds with -update)", err)
			}
			st, err := cassette.Verify(tapes)
			if err != nil {
				t.Fatal(err)
			}
			dicts, _ := filepath.Glob(filepath.Join(tapes, "dict", "*"))
			if len(dicts) != 1 || st.Dictionaries != 1 {
				t.Fatalf("the store as recorded holds %v, want one dictionary, the seed, and no current one", dicts)
			}
			if got, _ := os.ReadFile(dicts[0]); !bytes.Equal(got, shipped) {
				t.Errorf("the store as recorded holds %s, not the seed %s", dicts[0], name)
			}
			alone, err := cassette.SizeWith(tapes, nil)
			if err != nil {
				t.Fatal(err)
			}
			if 3*st.Bytes > alone {
				t.Errorf("with its seed the corpus keeps %d bytes, compressed alone %d: want a third or less", st.Bytes, alone)
			}
			withFresh, err := cassette.SizeWith(tapes, fresh)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d recordings, %d bytes with the seed, %d with a seed trained now, %d alone", track, st.Recordings, st.Bytes, withFresh, alone)
			if float64(st.Bytes) > staleRatio*float64(withFresh) {
				t.Errorf("%s is stale: it keeps its corpus in %d bytes, a seed trained now in %d; train the seeds again (go test ./cmd/ambibench/cli -run TestSeedDictionaries -update)",
					name, st.Bytes, withFresh)
			}
		})
	}
}

// A run records the same store at any --concurrency, and as two shards
// recording into one store at once: the same files, each compressed with
// the same dictionary, the same dictionaries, and the same recordings
// but for each reply's latency (the call's, timed, which is what a file
// holds that a second run cannot repeat).
func TestCassetteRecordingDeterministic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	grid := []string{"--agents", "direct,sgcot,inner-monologue", "--tasks", "pick_place,handover", "--perturbations", "none,absence", "--episodes", "2", "--quiet"}
	rec := func(tapes, out string, more ...string) {
		t.Helper()
		args := append(append([]string{"run", "--model", "record:" + tapes + "=sim", "--out", filepath.Join(dir, out)}, grid...), more...)
		if _, errOut, err := runCLI(t, args...); err != nil {
			t.Errorf("%v: %v\n%s", args, err, errOut)
		}
	}
	one, four, shards := filepath.Join(dir, "one"), filepath.Join(dir, "four"), filepath.Join(dir, "shards")
	rec(one, "run-one", "--concurrency", "1")
	rec(four, "run-four", "--concurrency", "4")
	var wg sync.WaitGroup
	for _, shard := range []string{"1/2", "2/2"} {
		wg.Go(func() { rec(shards, "run-shard"+shard[:1], "--shard", shard, "--concurrency", "2") })
	}
	wg.Wait()
	want := recordedStore(t, one)
	if len(want) < 20 || len(want["dict"]) != 1 {
		t.Fatalf("the store holds %d recordings and dictionaries %v: want some, and the seed", len(want)-1, want["dict"])
	}
	for _, other := range []string{four, shards} {
		got := recordedStore(t, other)
		if len(got) != len(want) {
			t.Errorf("%s: %d files, %s %d", other, len(got), one, len(want))
		}
		for name, w := range want {
			g, ok := got[name]
			switch {
			case !ok:
				t.Errorf("%s: no %s, which %s holds", other, name, one)
			case name == "dict":
				if !slices.Equal(g, w) {
					t.Errorf("%s: dictionaries %q, in %s %q", other, g, one, w)
				}
			case g[0] != w[0]:
				t.Errorf("%s: %s written with dictionary %s, in %s with %s", other, name, g[0], one, w[0])
			case g[1] != w[1]:
				t.Errorf("%s: %s holds another recording than in %s, its latency aside", other, name, one)
			}
		}
	}
}

// recordedStore returns what a store holds that a recording of the same
// run holds too: for each recording, the dictionary its frame names and
// its JSON without the reply's latency, by file name; under "dict", the
// dictionaries' names and sizes.
func recordedStore(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	names, _ := filepath.Glob(filepath.Join(dir, "*.zst"))
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var h zstd.Header
		if err := h.Decode(raw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := cassette.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		data = latency.ReplaceAll(data, []byte(`"latency_ns": 0`))
		out[filepath.Base(name)] = []string{fmt.Sprintf("%08x", h.DictionaryID), string(data)}
	}
	dicts, _ := os.ReadDir(filepath.Join(dir, "dict"))
	for _, d := range dicts {
		data, _ := os.ReadFile(filepath.Join(dir, "dict", d.Name()))
		out["dict"] = append(out["dict"], fmt.Sprintf("%s %d %x", d.Name(), len(data), sha256.Sum256(data)))
	}
	return out
}

var latency = regexp.MustCompile(`"latency_ns": [0-9]+`)
