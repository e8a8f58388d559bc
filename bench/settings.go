package bench

import (
	"strconv"

	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/results"
)

// Settings returns the settings of a run that change its outcomes, as
// run.json records them: two runs may add records to one directory only
// when these are equal. The grid (agents, models, families,
// perturbations, sizes, episodes) is not among them: it may grow. Only
// the settings the track reads are listed, so that a flag another track
// reads does not split a directory. Settings read from files (a dataset,
// a router) are named by a hash of their contents; the caller adds those
// it read (see the CLI's --data).
func Settings(opts Options) map[string]string {
	track := opts.Track
	if track == "" {
		track = Track
	}
	s := map[string]string{
		"suite":  strconv.Itoa(SuiteVersion),
		"schema": strconv.Itoa(results.SchemaVersion),
		"track":  track,
		"seed":   strconv.FormatUint(opts.Seed, 10),
	}
	switch track {
	case Track:
		limit := opts.StepLimit
		if limit <= 0 {
			limit = DefaultStepLimit
		}
		s["step_limit"] = strconv.Itoa(limit)
	case HouseholdTrack:
		trials := opts.Trials
		if trials <= 0 {
			trials = DefaultTrials
		}
		s["trials"] = strconv.Itoa(trials)
		s["grammar"] = opts.Grammar
		s["feedback"] = opts.Feedback
		r := opts.Router
		if r == nil {
			r, _ = dyref.Default() // the build's own file: it reads, or every dyref test fails
		}
		s["router"] = "unreadable"
		if r != nil {
			s["router"] = r.ID() // the weights, however the file is named
		}

	case SemmapTrack:
		if opts.Dataset != nil {
			s["dataset"] = opts.Dataset.Name
		}
	}
	return s
}
