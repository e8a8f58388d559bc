package bench

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/ambibench/ambibench/results"
)

// Settings returns the settings of a run that change its outcomes, as
// run.json records them: two runs may add records to one directory only
// when these are equal. The grid (agents, models, families,
// perturbations, sizes, episodes) is not among them: it may grow. Beside
// the suite and schema versions, the track and the seed, only the
// settings the track reads are listed (Track.Settings), so that a flag
// another track reads does not split a directory. Settings read from
// files (a dataset, a router) are named by a hash of their contents, and
// so is each prompt template that Options.Prompts replaces in the
// track's set ("prompt:tabletop/direct_system.tmpl": its SHA-256), so
// that a run with other prompts is never resumed into one without (the
// sets the track reads: [ReadsPromptSet]).
func Settings(opts Options) (map[string]string, error) {
	if opts.Track == nil {
		return nil, fmt.Errorf("no track (have %v)", TrackNames())
	}
	own, err := opts.Track.Settings()
	if err != nil {
		return nil, err
	}
	s := map[string]string{
		"suite":  strconv.Itoa(SuiteVersion),
		"schema": strconv.Itoa(results.SchemaVersion),
		"track":  opts.Track.Name(),
		"seed":   strconv.FormatUint(opts.Seed, 10),
	}
	for k, v := range own {
		if _, taken := s[k]; taken {
			return nil, fmt.Errorf("track %s: setting %q is the harness's own", opts.Track.Name(), k)
		}
		s[k] = v
	}
	var sets []string
	for _, r := range opts.Prompts.Replaced() {
		if ReadsPromptSet(opts.Track.Name(), r.Set) {
			sets = append(sets, r.Set)
		}
	}
	if len(sets) > 0 {
		for k, v := range opts.Prompts.Settings(sets...) {
			s[k] = v
		}
	}
	return s, nil
}

// ReadsPromptSet reports whether the workflows of a track read the
// prompt templates of a set (agents/prompt): the set named as the track
// ("tabletop", "household", "semmap"), and a set named as no registered
// track, an extension's, whose workflows may play any track. A template
// replaced in a set the track does not read changes none of its runs.
func ReadsPromptSet(track, set string) bool {
	return set == track || !slices.Contains(TrackNames(), set)
}
