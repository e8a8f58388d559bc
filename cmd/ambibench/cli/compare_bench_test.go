//go:build unix

package cli

import (
	"io"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// BenchmarkCompareMemory measures what ambibench compare keeps and
// allocates per episode (issue 36: memory flat in the size of the runs):
// one op compares a run of tabletop-like records with a copy of itself at
// 5,000 and at 50,000 episodes, the copy in the same order (two runs of
// one grid: a record is held until the other run's next one) or reversed
// (the worst order: half of each run is held until its partner comes),
// and reversed with --exact (what is held then is every field).
//
// live-MB@5k and live-MB@50k are the largest heap a collection found live
// during each comparison (/gc/heap/live:bytes, read every 5 ms), less the
// heap live before it; live-B/episode is their difference over the
// 45,000 episodes between: what the comparison keeps per episode, about
// nothing in the same order. alloc-B/episode is what the comparison at
// 50,000 allocates per episode, the decoding of both runs chiefly. The
// collector is left as the Go runtime sets it (GOGC=100).
func BenchmarkCompareMemory(b *testing.B) {
	b.Setenv("GOGC", "100")
	sizes := []int{5_000, 50_000}
	type pair struct{ base, new string }
	same, reversed := map[int]pair{}, map[int]pair{}
	for _, n := range sizes {
		recs := benchRecords(n)
		dir := writeRun(b, compareSettings, recs, false)
		slices.Reverse(recs)
		same[n], reversed[n] = pair{dir, dir}, pair{dir, writeRun(b, compareSettings, recs, false)}
	}
	for _, tc := range []struct {
		name  string
		runs  map[int]pair
		flags []string
	}{{"order=same", same, nil}, {"order=reversed", reversed, nil}, {"order=reversed/exact", reversed, []string{"--exact"}}} {
		b.Run(tc.name, func(b *testing.B) {
			grew := map[int]uint64{}
			var alloc uint64
			for b.Loop() {
				for _, n := range sizes {
					runtime.GC()
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					var live, heap uint64
					var mean float64
					stop := sampleHeap(&live, &heap, &mean)
					err := Run(io.Discard, io.Discard, append(append([]string{"compare"}, tc.flags...), tc.runs[n].base, tc.runs[n].new))
					stop()
					runtime.ReadMemStats(&after)
					if err != nil {
						b.Fatal(err)
					}
					grew[n] = max(grew[n], live-min(live, before.HeapAlloc))
					if n == sizes[1] {
						alloc += after.TotalAlloc - before.TotalAlloc
					}
				}
			}
			b.ReportMetric(float64(grew[sizes[0]])/(1<<20), "live-MB@5k")
			b.ReportMetric(float64(grew[sizes[1]])/(1<<20), "live-MB@50k")
			b.ReportMetric((float64(grew[sizes[1]])-float64(grew[sizes[0]]))/float64(sizes[1]-sizes[0]), "live-B/episode")
			b.ReportMetric(float64(alloc)/float64(b.N)/float64(sizes[1]), "alloc-B/episode")
		})
	}
}

// benchRecords are n tabletop-like records (rounded down to whole cells)
// of three agents on 28 cells, their fields filled as a run fills them.
func benchRecords(n int) []results.Record {
	agents := []string{"oracle", "random", "rules"}
	families := []string{"handover", "long_horizon", "pick_place", "spatial"}
	perts := []string{"absence", "execution_noise", "multiplicity", "none", "partial_observability", "scene_graph_noise", "underspecified"}
	per := n / (len(agents) * len(families) * len(perts))
	out := make([]results.Record, 0, n)
	for _, f := range families {
		for _, p := range perts {
			for _, a := range agents {
				for e := range per {
					r := results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored,
						Track: "tabletop", Family: f, Perturbation: p, Label: "none", Agent: a, Seed: 1, Episode: e, Objects: 6,
						Success: e%3 != 0, ADA: e%4 != 0, Steps: 2 + e%3, WallMS: 0.3,
						ToolCalls: map[string]int{"done": 1, "pick_and_place": 1 + e%2}, ActedBy: []string{"robot1"}}
					r.Instruction = "Place the orange block in the purple bowl, episode " + strconv.Itoa(e) + "."
					out = append(out, r)
				}
			}
		}
	}
	return out
}
