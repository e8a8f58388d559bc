package tabletop

import (
	"github.com/ambibench/ambibench/bench"
	"strconv"
	"testing"
)

// BenchmarkSceneSize runs the plain pick-and-place cell on tables of 6 to
// 48 objects, one sub-benchmark per agent and size; one op is one episode,
// and each repeat of -count plays a fresh block (see bench.BlockStart).
// Beside ADA and SR it reports tokens/op, the input and output tokens of
// an episode, which is what grows with the table: the whole graph in the
// prompt against what retrieval fetches.
//
//	go test -run '^$' -bench SceneSize -benchtime 50x ./bench/ | go tool benchstat -col /agent -
func BenchmarkSceneSize(b *testing.B) {
	opts := bench.Options{Seed: 1, Model: benchModel(b)}
	bench.WriteBenchmarkHeader(opts, bench.RateMetrics(nil))
	cell := bench.Cell{Family: "pick_place", Perturbation: "none"}
	for _, agent := range []string{"rules", "direct", "sgcot", "sgcot-full-graph"} {
		for _, size := range []int{6, 12, 24, MaxSceneSize} {
			b.Run("agent="+bench.SanitizeName(agent)+"/size="+strconv.Itoa(size), func(b *testing.B) {
				c := cell
				c.Size = size
				benchEpisodes(b, opts, func(i int) bench.Job { return bench.Job{Cell: c, Agent: agent, Index: i} })
			})
		}
	}
}
