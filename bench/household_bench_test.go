package bench

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents"
)

// BenchmarkHousehold runs one sub-benchmark per agent and household cell;
// one op is one episode (a game of the evaluation split, all its trials),
// cycling through the cell's games. SR, SR@1, SR@k (k the trials allowed),
// steps/op, reflections/op, calls/op and tokens/op are reported. The
// workflows' model comes from AMBIBENCH_MODEL (default: sim).
//
//	go test -run '^$' -bench Household -benchtime 134x ./bench/ | go tool benchstat -col /agent -
func BenchmarkHousehold(b *testing.B) {
	cells, err := HouseholdCells(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	model := benchModel(b)
	calib := NewCalibration(1, 0)
	for _, agent := range agents.NamesFor(HouseholdTrack) {
		warmUp(b, agent, model, calib)
		for _, c := range cells {
			games := EvalCount(c.Family)
			b.Run(SubBenchmarkName(agent, c), func(b *testing.B) {
				var sr, sr1, srk, steps, refl, calls, tokens float64
				i := 0
				for b.Loop() {
					job := Job{Cell: c, Agent: agent, Index: i % games, Track: HouseholdTrack}
					rec, err := RunEpisode(ctx, job, EpisodeOptions{Seed: 1, Model: model, Calibration: calib})
					if err != nil {
						b.Fatal(err)
					}
					i++
					if rec.Success {
						sr++
					}
					if rec.SolvedBy(1) {
						sr1++
					}
					if rec.SolvedBy(DefaultTrials) {
						srk++
					}
					steps += float64(rec.Steps)
					refl += float64(rec.Reflections)
					calls += float64(rec.Calls)
					tokens += float64(rec.InputTokens + rec.OutputTokens)
				}
				n := float64(i)
				b.ReportMetric(sr/n, "SR")
				b.ReportMetric(sr1/n, "SR@1")
				b.ReportMetric(srk/n, "SR@5")
				b.ReportMetric(steps/n, "steps/op")
				b.ReportMetric(refl/n, "reflections/op")
				b.ReportMetric(calls/n, "calls/op")
				b.ReportMetric(tokens/n, "tokens/op")
			})
		}
	}
}
