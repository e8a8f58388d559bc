package semmap

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"testing"

	"github.com/ambibench/ambibench/agents"
	tsm "github.com/ambibench/ambibench/tasks/semmap"
)

// BenchmarkSemmap runs one sub-benchmark per agent and query type on the
// built-in dataset (certainty input); one op is one (map, query) episode,
// cycling through the type's pairs. Top1, Top2, Top3, TopAny, calls/op and
// tokens/op are reported. The workflows' model comes from AMBIBENCH_MODEL
// (default: sim).
//
//	go test -run '^$' -bench Semmap -benchtime 80x ./bench/ | go tool benchstat -col /agent -
func BenchmarkSemmap(b *testing.B) {
	d := tsm.Builtin(1)
	cells, err := SemmapCells(d, nil, []string{agents.ModeCertainty})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	model := benchModel(b)
	for _, agent := range agents.NamesFor(SemmapTrack) {
		for _, c := range cells {
			pairs := len(semmapPairs(d, c.Family))
			b.Run("agent="+sanitize(agent)+"/qtype="+sanitize(c.Family), func(b *testing.B) {
				var t1, t2, t3, ta, calls, tokens float64
				i := 0
				for b.Loop() {
					job := bench.Job{Cell: c, Agent: agent, Index: i % pairs, Track: SemmapTrack}
					rec, err := RunEpisode(ctx, job, bench.Options{Seed: 1, Model: model, Dataset: d})
					if err != nil {
						b.Fatal(err)
					}
					mustBeScored(b, rec)
					i++
					t1 += float64(b2f(rec.Top1))
					t2 += float64(b2f(rec.Top2))
					t3 += float64(b2f(rec.Top3))
					ta += float64(b2f(rec.TopAny))
					calls += float64(rec.Calls)
					tokens += float64(rec.InputTokens + rec.OutputTokens)
				}
				n := float64(i)
				b.ReportMetric(t1/n, "Top1")
				b.ReportMetric(t2/n, "Top2")
				b.ReportMetric(t3/n, "Top3")
				b.ReportMetric(ta/n, "TopAny")
				b.ReportMetric(calls/n, "calls/op")
				b.ReportMetric(tokens/n, "tokens/op")
			})
		}
	}
}

func b2f(v bool) int {
	if v {
		return 1
	}
	return 0
}
