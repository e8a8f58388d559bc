package household

import (
	"context"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// runEpisode plays a job on the household track, on a track of its own unless
// opts names one, as bench.RunEpisode does.
func runEpisode(ctx context.Context, job bench.Job, opts bench.Options) (results.Record, error) {
	if opts.Track == nil {
		opts.Track = New()
	}
	return bench.RunEpisode(ctx, job, opts)
}
