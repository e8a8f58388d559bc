package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	tsm "github.com/ambibench/ambibench/tasks/semmap"
)

// What run does with flags that a track, or the agents chosen, do not
// use: a flag that changes nothing is refused rather than ignored, so that
// a user never reads a table as the result of a setting it did not have.

// tabletopEpisodes is the tabletop's episodes per cell when --episodes
// is not given. The other tracks' cells hold a fixed set of episodes
// (games, dataset pairs), and they run all of them.
const tabletopEpisodes = 100

// trackFlags names, for each run flag that only some tracks read, the
// tracks that read it.
var trackFlags = []struct {
	flag   string
	tracks []string
	hint   string // what the other tracks have instead, if anything
}{
	{"perturbations", []string{bench.Track, bench.HouseholdTrack}, "the semmap track's second dimension is --modes"},
	{"modes", []string{bench.SemmapTrack}, ""},
	{"data", []string{bench.SemmapTrack}, ""},
	{"scene-sizes", []string{bench.Track}, ""},
	{"trials", []string{bench.HouseholdTrack}, ""},
	{"grammar", []string{bench.HouseholdTrack}, ""},
	{"feedback", []string{bench.HouseholdTrack}, ""},
	{"router", []string{bench.HouseholdTrack}, ""},
}

// flagGiven reports whether the command line set the flag, even to its
// default value.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// checkTrackFlags refuses a flag given on the command line that the track
// does not read.
func checkTrackFlags(fs *flag.FlagSet, track string) error {
	for _, tf := range trackFlags {
		if !flagGiven(fs, tf.flag) || slices.Contains(tf.tracks, track) {
			continue
		}
		msg := fmt.Sprintf("run: --%s belongs to --track %s; the %s track does not read it", tf.flag, strings.Join(tf.tracks, " or "), track)
		if tf.hint != "" {
			msg += " (" + tf.hint + ")"
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// episodesFlag is the grid's episodes per cell: the flag's value, or when
// it is 0 (its default) the track's default, which on the tracks with a
// fixed set of episodes is 0 for every one of them (bench.Options).
func episodesFlag(n int, track string) int {
	if n == 0 && track == bench.Track {
		return tabletopEpisodes
	}
	return n
}

// checkUnusedModel refuses a --model spec that cannot be read, and warns
// that a good one is not used, when no agent of the run calls a model:
// the spec is then never opened, so a typo would otherwise pass unseen.
func checkUnusedModel(fs *flag.FlagSet, stderr io.Writer, spec string) error {
	if !flagGiven(fs, "model") {
		return nil
	}
	if err := models.Check(spec); err != nil {
		return fmt.Errorf("run: --model: %w", err)
	}
	fmt.Fprintf(stderr, "ambibench: warning: --model %s: no agent of this run uses a model; it is not opened\n", spec)
	return nil
}

// episodesLine says how many episodes each cell ran, for the summary:
// on the household and semmap tracks out of how many the cell holds, so
// that a number below that is never read as the whole set; cut reports
// that --episodes left some out.
func episodesLine(opts bench.Options) (line string, cut bool) {
	if opts.Track == bench.Track || opts.Track == "" {
		return fmt.Sprintf("%d episodes per cell and agent", opts.Episodes), false
	}
	unit, cells := "games", []bench.Cell(nil)
	var err error
	if opts.Track == bench.SemmapTrack {
		unit = "pairs"
		cells, err = bench.SemmapCells(opts.Dataset, opts.Families, opts.Perturbations)
	} else {
		cells, err = bench.HouseholdCells(opts.Families, opts.Perturbations)
	}
	if err != nil || len(cells) == 0 {
		return fmt.Sprintf("%d episodes per cell and agent", opts.Episodes), false
	}
	// One count per family: the modes or perturbations of a family hold
	// the same episodes.
	var parts []string
	seen := map[string]bool{}
	for _, c := range cells {
		if seen[c.Family] {
			continue
		}
		seen[c.Family] = true
		have, _ := bench.CellEpisodes(opts, c)
		ran := have
		if opts.Episodes > 0 && opts.Episodes < have {
			ran, cut = opts.Episodes, true
		}
		if ran == have {
			parts = append(parts, fmt.Sprintf("%s %d", c.Family, have))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d of %d", c.Family, ran, have))
		}
	}
	if !cut {
		return fmt.Sprintf("every %s of each cell, per agent (%s)", strings.TrimSuffix(unit, "s"), strings.Join(parts, ", ")), false
	}
	return fmt.Sprintf("%s per cell and agent: %s (--episodes %d; the rest not run)", unit, strings.Join(parts, ", "), opts.Episodes), true
}

// datasetWarnings prints the faults the dataset's loader tolerated to
// stderr, and returns them as a summary section ("" without any).
func datasetWarnings(stderr io.Writer, d *tsm.Dataset) string {
	if d == nil || len(d.Warnings) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Dataset warnings\n\nDataset %s loaded with %d warnings:\n\n", d.Name, len(d.Warnings))
	for _, w := range d.Warnings {
		fmt.Fprintf(stderr, "ambibench: warning: dataset %s: %s\n", d.Name, w)
		fmt.Fprintf(&b, "- %s\n", w)
	}
	b.WriteString("\n")
	return b.String()
}
