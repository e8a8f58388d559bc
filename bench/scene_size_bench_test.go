package bench

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkSceneSize runs the plain pick-and-place cell on tables of 6 to
// 48 objects, one sub-benchmark per agent and size; one op is one episode.
// Beside ADA and SR it reports tokens/op, the input and output tokens of
// an episode, which is what grows with the table: the whole graph in the
// prompt against what retrieval fetches.
//
//	go test -run '^$' -bench SceneSize -benchtime 50x ./bench/ | go tool benchstat -col /agent -
func BenchmarkSceneSize(b *testing.B) {
	ctx := context.Background()
	model := benchModel(b)
	cell := Cell{Family: "pick_place", Perturbation: "none"}
	for _, agent := range []string{"rules", "direct", "sgcot", "sgcot-full-graph"} {
		for _, size := range []int{6, 12, 24, MaxSceneSize} {
			b.Run("agent="+sanitize(agent)+"/size="+strconv.Itoa(size), func(b *testing.B) {
				c := cell
				c.Size = size
				var ada, sr, calls, tokens float64
				i := 0
				for b.Loop() {
					rec, err := RunEpisode(ctx, Job{Cell: c, Agent: agent, Index: i}, EpisodeOptions{Seed: 1, Model: model})
					if err != nil {
						b.Fatal(err)
					}
					i++
					if rec.ADA {
						ada++
					}
					if rec.Success {
						sr++
					}
					calls += float64(rec.Calls)
					tokens += float64(rec.InputTokens + rec.OutputTokens)
				}
				n := float64(i)
				b.ReportMetric(ada/n, "ADA")
				b.ReportMetric(sr/n, "SR")
				b.ReportMetric(calls/n, "calls/op")
				b.ReportMetric(tokens/n, "tokens/op")
			})
		}
	}
}
