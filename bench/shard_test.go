package bench_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/bench/tabletop"
)

// realGrids are whole grids of the three tracks, as a run lists them.
func realGrids(t *testing.T) map[string]bench.Options {
	t.Helper()
	hopts := bench.Options{Track: household.New(), Seed: 1, Agents: []string{"oracle", "rules", "reflexion"}, Episodes: 3}
	sopts := bench.Options{Track: semmap.New(), Seed: 1, Episodes: 2}
	for _, o := range []bench.Options{hopts, sopts} {
		if err := o.Track.Prepare(new(strings.Builder)); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]bench.Options{
		"tabletop":  {Track: tabletop.New(), Seed: 1, Episodes: 5},
		"household": hopts,
		"semmap":    sopts,
	}
}

// Every job of a real grid is in exactly one of n shards, for n from 1 to
// 7; each shard keeps the grid order; the shards' sizes differ by at most
// one; and shard i of n is what Jobs lists with Options.Shard.
func TestShardsDealEveryJobOnce(t *testing.T) {
	t.Parallel()
	for name, opts := range realGrids(t) {
		all, err := bench.Jobs(opts)
		if err != nil {
			t.Fatal(err)
		}
		if order := bench.Order(all); order.Len() != len(all) {
			t.Errorf("%s: Order holds %d jobs, the grid %d", name, order.Len(), len(all))
		}
		for n := 1; n <= 7; n++ {
			seen := map[bench.Job]int{}
			var sizes []int
			for i := 1; i <= n; i++ {
				o := opts
				o.Shard = bench.Shard{Index: i, Count: n}
				part, err := bench.Jobs(o)
				if err != nil {
					t.Fatal(err)
				}
				last := -1
				for _, j := range part {
					seen[j]++
					k := slices.Index(all, j)
					if k <= last {
						t.Fatalf("%s shard %d/%d: job %v out of grid order", name, i, n, j)
					}
					last = k
				}
				sizes = append(sizes, len(part))
			}
			for _, j := range all {
				if seen[j] != 1 {
					t.Errorf("%s, %d shards: job %v is in %d shards, want 1", name, n, j, seen[j])
				}
			}
			if len(seen) != len(all) {
				t.Errorf("%s, %d shards: %d distinct jobs, the grid has %d", name, n, len(seen), len(all))
			}
			if slices.Max(sizes)-slices.Min(sizes) > 1 {
				t.Errorf("%s, %d shards: sizes %v differ by more than one", name, n, sizes)
			}
		}
	}
}

// Round-robin dealing gives every shard of n each (agent, cell) with at
// least n episodes: the mix of agents and cells, and so the cost, is
// alike across shards.
func TestShardsMixAgentsAndCells(t *testing.T) {
	t.Parallel()
	opts := realGrids(t)["tabletop"]
	opts.Episodes = 4
	all, _ := bench.Jobs(opts)
	type ac struct {
		agent string
		cell  bench.Cell
	}
	want := map[ac]bool{}
	for _, j := range all {
		want[ac{j.Agent, j.Cell}] = true
	}
	for i := 1; i <= 4; i++ {
		opts.Shard = bench.Shard{Index: i, Count: 4}
		part, _ := bench.Jobs(opts)
		got := map[ac]bool{}
		for _, j := range part {
			got[ac{j.Agent, j.Cell}] = true
		}
		if len(got) != len(want) {
			t.Errorf("shard %d/4 holds %d of the %d (agent, cell) pairs, want all", i, len(got), len(want))
		}
	}
}

func TestParseShard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want bench.Shard
		err  string
	}{
		{"1/4", bench.Shard{Index: 1, Count: 4}, ""},
		{"4/4", bench.Shard{Index: 4, Count: 4}, ""},
		{" 2 / 3 ", bench.Shard{Index: 2, Count: 3}, ""},
		{"1/1", bench.Shard{Index: 1, Count: 1}, ""},
		{"5/4", bench.Shard{}, "5/4: index must be between 1 and 4"},
		{"0/4", bench.Shard{}, "0/4: index must be between 1 and 4"},
		{"1/0", bench.Shard{}, "must be at least 1"},
		{"-1/4", bench.Shard{}, "index must be between 1 and 4"},
		{"3", bench.Shard{}, "want i/n"},
		{"a/b", bench.Shard{}, "want i/n"},
		{"1/4/5", bench.Shard{}, "want i/n"},
		{"", bench.Shard{}, "want i/n"},
	} {
		got, err := bench.ParseShard(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseShard(%q): %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseShard(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.err)
		case got != tc.want:
			t.Errorf("ParseShard(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// Whatever ParseShard accepts is a valid shard that prints back as it
// parses; whatever it refuses gives no shard.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/4", "4/4", "5/4", "0/1", "x", "1/", "/1", " 3/7", "9999999999999999999/1", "1/-1", "+1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := bench.ParseShard(s)
		if err != nil {
			if sh != (bench.Shard{}) {
				t.Fatalf("ParseShard(%q) refused with %v but returned %v", s, err, sh)
			}
			return
		}
		if err := sh.Check(); err != nil || sh.Index < 1 || sh.Index > sh.Count {
			t.Fatalf("ParseShard(%q) = %v, which is no shard (%v)", s, sh, err)
		}
		again, err := bench.ParseShard(sh.String())
		if err != nil || again != sh {
			t.Fatalf("ParseShard(%q) = %v, but its text %q parses as %v, %v", s, sh, sh.String(), again, err)
		}
		if !sh.Has(sh.Index-1) || sh.Count > 1 && sh.Has(sh.Index%sh.Count) {
			t.Fatalf("%v: job %d should be its first and job %d another's", sh, sh.Index-1, sh.Index%sh.Count)
		}
	})
}
