package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/cassette"
)

// BenchmarkCassetteStore records a tabletop grid of the nine LLM
// workflows with the simulated model, five episodes a cell (1,170
// episodes), and compacts the store: B/episode is what the store keeps an
// episode, images aside (the goal of issue 36 is at most 3 KB), once
// compacted; recorded-B/episode is the same as the recorder wrote it (each
// file compressed alone, with the tabletop seed dictionary), pruned-B/episode
// once compacted again with --prune (which may then count the seed's bytes
// against a dictionary of the store's own); json-B/episode is the first
// layout's, image-B/episode the images, kept once each, apart.
func BenchmarkCassetteStore(b *testing.B) {
	agents := "clara,direct,inner-monologue,progprompt,sgcot,sgcot-full-graph,sgcot-single-retrieval,sgcot-no-edges,sgcot-text"
	for b.Loop() {
		dir := b.TempDir()
		tapes, out := filepath.Join(dir, "tapes"), filepath.Join(dir, "run")
		var o, e strings.Builder
		if err := Run(&o, &e, []string{"run", "--agents", agents, "--episodes", "5", "--quiet", "--model", "record:" + tapes + "=sim", "--out", out}); err != nil {
			b.Fatalf("%v\n%s", err, e.String())
		}
		data, err := os.ReadFile(filepath.Join(out, "records.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		episodes := float64(strings.Count(string(data), "\n"))
		recorded, err := cassette.Verify(tapes)
		if err != nil {
			b.Fatal(err)
		}
		st, err := cassette.Compact(tapes, cassette.CompactOptions{})
		if err != nil {
			b.Fatal(err)
		}
		pruned, err := cassette.Compact(tapes, cassette.CompactOptions{Prune: true})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.StoreBytes())/episodes, "B/episode")
		b.ReportMetric(float64(pruned.StoreBytes())/episodes, "pruned-B/episode")
		b.ReportMetric(float64(recorded.StoreBytes())/episodes, "recorded-B/episode")
		b.ReportMetric(float64(st.JSONBytes)/episodes, "json-B/episode")
		b.ReportMetric(float64(st.ImageBytes)/episodes, "image-B/episode")
		b.ReportMetric(episodes, "episodes")
	}
}
