package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/tasks/alfworld"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// stripWall zeroes wall times, the one field allowed to differ between runs.
func stripWall(t *testing.T, data []byte) []results.Record {
	t.Helper()
	recs, err := results.ReadRecords(bytes.NewReader(data), "records")
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		recs[i].WallMS = 0
	}
	return recs
}

func TestRunSameRecordsAtAnyConcurrency(t *testing.T) {
	t.Parallel()
	var outs [][]byte
	for _, conc := range []int{1, 4} {
		var buf bytes.Buffer
		opts := bench.Options{Track: tabletop.New(), Seed: 7, Agents: []string{"rules", "random"}, Episodes: 6, Concurrency: conc}
		if _, err := bench.Run(context.Background(), opts, results.NewWriter(&buf), nil); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, buf.Bytes())
	}
	a, b := stripWall(t, outs[0]), stripWall(t, outs[1])
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("record counts %d and %d", len(a), len(b))
	}
	for i := range a {
		ja, _ := json.Marshal(a[i])
		jb, _ := json.Marshal(b[i])
		if !bytes.Equal(ja, jb) {
			t.Fatalf("record %d differs between concurrency 1 and 4:\n%s\n%s", i, ja, jb)
		}
	}
}

func TestRunSkipsRecordedJobs(t *testing.T) {
	t.Parallel()
	opts := bench.Options{Track: tabletop.New(), Seed: 3, Families: []string{"pick_place"}, Perturbations: []string{"none"}, Agents: []string{"rules"}, Episodes: 5}
	jobs, err := bench.Jobs(opts)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{jobs[0].Key(3, ""): true, jobs[3].Key(3, ""): true}
	recs, err := bench.Run(context.Background(), opts, nil, have)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, r := range recs {
		got = append(got, r.Episode)
	}
	if want := []int{1, 2, 4}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("ran episodes %v, want %v", got, want)
	}
}

func TestRunCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := bench.Run(ctx, bench.Options{Track: tabletop.New(), Seed: 1, Agents: []string{"rules"}, Episodes: 3}, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestJobsRejectsBadGrid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		opts bench.Options
	}{
		{"unknown agent", bench.Options{Track: tabletop.New(), Agents: []string{"nobody"}, Episodes: 1}},
		{"unknown family", bench.Options{Track: tabletop.New(), Families: []string{"juggling"}, Episodes: 1}},
		{"unknown perturbation", bench.Options{Track: tabletop.New(), Perturbations: []string{"no-such-perturbation"}, Episodes: 1}},
		{"no episodes: the tabletop has no fixed set to take all of", bench.Options{Track: tabletop.New(), Episodes: 0}},
		{"negative episodes on a track with a fixed set", bench.Options{Track: household.New(), Agents: []string{"rules"}, Episodes: -1}},
	} {
		if _, err := bench.Jobs(tc.opts); err == nil {
			t.Errorf("%s: no error", tc.why)
		}
	}
}

// On the tracks whose cells hold a fixed set of episodes, Episodes 0 is
// every one of them and a larger number no more than that; a smaller
// number takes the first ones.
func TestJobsEpisodesOfFixedSets(t *testing.T) {
	t.Parallel()
	d := mapqueries.Builtin(1)
	for _, tc := range []struct {
		why    string
		opts   bench.Options
		family string
		want   int // -1: all the cell has
	}{
		{"semmap, 0: every pair", bench.Options{Track: semmap.NewWith(d)}, mapqueries.TypeNegation, -1},
		{"semmap, more than there are: every pair", bench.Options{Track: semmap.NewWith(d), Episodes: 1 << 20}, mapqueries.TypeNegation, -1},
		{"semmap, fewer: the first", bench.Options{Track: semmap.NewWith(d), Episodes: 7}, mapqueries.TypeNegation, 7},
		{"household, 0: every game", bench.Options{Track: household.New()}, alfworld.TypePickAndPlace, -1},
	} {
		tc.opts.Agents, tc.opts.Families = []string{"rules"}, []string{tc.family}
		jobs, err := bench.Jobs(tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		have, bounded := tc.opts.Track.CellEpisodes(jobs[0].Cell)
		if !bounded || have == 0 {
			t.Fatalf("%s: CellEpisodes %d, bounded %v", tc.why, have, bounded)
		}
		want := tc.want
		if want < 0 {
			want = have
		}
		// Jobs holds one job per mode or perturbation and episode.
		cells := map[bench.Cell]int{}
		for _, j := range jobs {
			cells[j.Cell]++
		}
		for c, n := range cells {
			if n != want {
				t.Errorf("%s: cell %v has %d jobs, want %d (of %d)", tc.why, c, n, want, have)
			}
		}
	}
}

// Episodes depend on the seed and the cell, never on the agent.
func TestEpisodesAreFixedBySeedAndCell(t *testing.T) {
	t.Parallel()
	a, err := tabletop.MakeEpisode(5, "spatial", "multiplicity", 9)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tabletop.MakeEpisode(5, "spatial", "multiplicity", 9)
	c, _ := tabletop.MakeEpisode(6, "spatial", "multiplicity", 9)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	jc, _ := json.Marshal(c)
	if !bytes.Equal(ja, jb) {
		t.Error("same seed and cell gave different episodes")
	}
	if bytes.Equal(ja, jc) {
		t.Error("different seeds gave the same episode")
	}
	if _, err := tabletop.MakeEpisode(1, "spatial", "partial_observability", 0); err == nil {
		t.Error("partial_observability on spatial: want an error, the cell is not in the grid")
	}
}

func TestEpisodeSeedSeparatesParts(t *testing.T) {
	t.Parallel()
	if bench.EpisodeSeed(1, "ab", "c") == bench.EpisodeSeed(1, "a", "bc") {
		t.Error(`("ab","c") and ("a","bc") share a seed`)
	}
	if bench.EpisodeSeed(1, "x", 0) == bench.EpisodeSeed(2, "x", 0) {
		t.Error("suite seed is ignored")
	}
}

// A cancelled run (Ctrl-C) starts no episode after the cancel: it returns
// the records written so far with the context's error, and the few that
// were running are not recorded. How many finished episodes the writer
// had yet to write when the cancel came depends on scheduling (the
// workers do not wait for it), so the test bounds what started after the
// cancel, not what was written.
func TestRunStopsAtOnceWhenCancelled(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		var played int
		var started, atCancel atomic.Int64
		opts := bench.Options{Track: tabletop.New(), Seed: 7, Agents: []string{"rules"}, Episodes: 200, Concurrency: conc,
			OnRecord: func(bench.Job, results.Record) {
				played++
				if played == 5 {
					atCancel.Store(started.Load())
					cancel()
				}
			}}
		bench.OnStart(&opts, func(bench.Job) { started.Add(1) })
		var buf bytes.Buffer
		recs, err := bench.Run(ctx, opts, results.NewWriter(&buf), nil)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("concurrency %d: error %v, want context.Canceled", conc, err)
		}
		written := stripWall(t, buf.Bytes())
		if len(recs) != len(written) || len(written) < 5 || int64(len(written)) > atCancel.Load()+int64(conc) {
			t.Errorf("concurrency %d: %d records returned, %d written; want the 5 before the cancel and none of an episode started after it (%d had started)",
				conc, len(recs), len(written), atCancel.Load())
		}
		// Each worker may be starting an episode as the cancel comes.
		if after := started.Load() - atCancel.Load(); after > int64(conc) {
			t.Errorf("concurrency %d: %d episodes started after the cancel", conc, after)
		}
	}
}

// Repeats play each job k times, repeat innermost; repeat 0 is the job,
// key and agent seed of a run without repeats.
func TestJobsRepeats(t *testing.T) {
	t.Parallel()
	opts := bench.Options{Track: tabletop.New(), Agents: []string{"rules", "random"}, Families: []string{"pick_place"}, Episodes: 2}
	once, err := bench.Jobs(opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Repeats = 3
	jobs, err := bench.Jobs(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3*len(once) {
		t.Fatalf("%d jobs, want 3×%d", len(jobs), len(once))
	}
	keys := map[string]bool{}
	for i, j := range jobs {
		if j.Repeat != i%3 {
			t.Fatalf("job %d has repeat %d, want %d", i, j.Repeat, i%3)
		}
		o := once[i/3]
		if j.Cell != o.Cell || j.Agent != o.Agent || j.Index != o.Index {
			t.Fatalf("job %d is %+v, want a repeat of %+v", i, j, o)
		}
		k := j.Key(opts.Seed, "")
		if keys[k] {
			t.Fatalf("key %s twice", k)
		}
		keys[k] = true
		if j.Repeat == 0 && k != o.Key(opts.Seed, "") {
			t.Errorf("repeat 0 key %s, want %s", k, o.Key(opts.Seed, ""))
		}
		seed := bench.AgentSeed(j, opts, "x", j.Index)
		if plain := bench.EpisodeSeed(opts.Seed, "x", j.Index); (seed == plain) != (j.Repeat == 0) {
			t.Errorf("job %d: agent seed %d, without the repeat %d", i, seed, plain)
		}
	}
	if n := bench.Order(jobs).Len(); n != len(jobs) {
		t.Errorf("the job order holds %d jobs, want %d", n, len(jobs))
	}
	opts.Repeats = -1
	if _, err := bench.Jobs(opts); err == nil {
		t.Error("Repeats -1 accepted")
	}
}
