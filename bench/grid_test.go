package bench_test

import (
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
)

// listJobs is the grid as the runner listed it before it made jobs one at
// a time: every cell, agent, episode and repeat in turn, then dealt to
// the shard. The Grid must make the same jobs in the same order.
func listJobs(t *testing.T, opts bench.Options) []bench.Job {
	t.Helper()
	cells, err := opts.Track.Cells(opts.Families, opts.Perturbations)
	if err != nil {
		t.Fatal(err)
	}
	names := opts.Agents
	if len(names) == 0 {
		names = agents.NamesFor(opts.Track.Name())
	}
	var jobs []bench.Job
	for _, c := range cells {
		n := opts.Episodes
		if have, bounded := opts.Track.CellEpisodes(c); bounded && (n == 0 || n > have) {
			n = have
		}
		for _, a := range names {
			for i := range n {
				for r := range max(opts.Repeats, 1) {
					jobs = append(jobs, bench.Job{Cell: c, Agent: a, Index: i, Track: opts.Track.Name(), Repeat: r})
				}
			}
		}
	}
	return opts.Shard.Of(jobs)
}

// The grid's jobs, made one at a time, are those of the list, in its
// order, for every track, with repeats and scene sizes, whole and in
// shards; its Order is Order of the list; its Agents are the agents of
// the jobs.
func TestGridMakesTheListedJobs(t *testing.T) {
	t.Parallel()
	grids := realGrids(t)
	grids["tabletop repeats"] = bench.Options{Track: tabletop.New(), Seed: 1, Agents: []string{"rules", "random"}, Families: []string{"pick_place", "handover"}, Episodes: 3, Repeats: 2}
	grids["tabletop sizes"] = bench.Options{Track: &tabletop.Track{SceneSizes: []int{0, 12}}, Seed: 1, Agents: []string{"rules"}, Families: []string{"pick_place"}, Episodes: 2}
	grids["one episode"] = bench.Options{Track: tabletop.New(), Seed: 1, Agents: []string{"oracle", "rules", "random"}, Families: []string{"pick_place"}, Perturbations: []string{"none"}, Episodes: 1}
	for name, opts := range grids {
		for _, shard := range []bench.Shard{{}, {Index: 1, Count: 1}, {Index: 2, Count: 3}, {Index: 7, Count: 7}, {Index: 5, Count: 50}, {Index: 900, Count: 1000}} {
			opts.Shard = shard
			want := listJobs(t, opts)
			g, err := bench.NewGrid(opts)
			if err != nil {
				t.Fatal(err)
			}
			if g.Len() != len(want) {
				t.Fatalf("%s, shard %v: %d jobs, want %d", name, shard, g.Len(), len(want))
			}
			var got []bench.Job
			for j := range g.All() {
				got = append(got, j)
			}
			if !reflect.DeepEqual(got, want) && len(want) > 0 {
				t.Fatalf("%s, shard %v: jobs differ from the list", name, shard)
			}
			var agents []string
			seen := map[string]bool{}
			for _, j := range want {
				if !seen[j.Agent] {
					seen[j.Agent] = true
					agents = append(agents, j.Agent)
				}
			}
			if a := g.Agents(); !reflect.DeepEqual(a, agents) {
				t.Errorf("%s, shard %v: agents %v, want %v", name, shard, a, agents)
			}
		}
		opts.Shard = bench.Shard{}
		g, _ := bench.NewGrid(opts)
		if got, want := g.Order(), bench.Order(listJobs(t, opts)); !got.Equal(want) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: order %+v, want %+v", name, got, want)
		}
	}
}
