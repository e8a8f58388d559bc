package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
)

// What run does with flags that a track, or the agents chosen, do not
// use: a flag that changes nothing is refused rather than ignored, so that
// a user never reads a table as the result of a setting it did not have.

// trackFlags are the run flags the tracks add (bench.Track.Flags): which
// tracks read each, and the value of every registered track, bound to
// them.
type trackFlags struct {
	tracks map[string]bench.Track
	owners map[string][]string // flag name → the tracks that read it
}

// bindTrackFlags adds every registered track's own flags to fs, a fresh
// value of each track bound to them. A flag two tracks declare sets both.
func bindTrackFlags(fs *flag.FlagSet) trackFlags {
	tf := trackFlags{tracks: map[string]bench.Track{}, owners: map[string][]string{}}
	for _, t := range bench.Tracks() {
		tf.tracks[t.Name()] = t
		own := flag.NewFlagSet(t.Name(), flag.ContinueOnError)
		t.Flags(own)
		own.VisitAll(func(f *flag.Flag) {
			tf.owners[f.Name] = append(tf.owners[f.Name], t.Name())
			if prev := fs.Lookup(f.Name); prev != nil {
				// One line of help says what the flag is to each track;
				// only the first usage may name the value's placeholder.
				prev.Usage += "; " + strings.ReplaceAll(f.Usage, "`", "")
				if m, ok := prev.Value.(fanOut); ok {
					m = append(m, f.Value)
					prev.Value = m
					return
				}
				prev.Value = fanOut{prev.Value, f.Value}
				return
			}
			fs.Var(f.Value, f.Name, f.Usage)
		})
	}
	return tf
}

// fanOut is a flag that several tracks declare: setting it sets each.
type fanOut []flag.Value

// String is the first track's value. The flag package also calls it on
// a zero fanOut, to learn whether a default is zero, so that has one too.
func (f fanOut) String() string {
	if len(f) == 0 {
		return ""
	}
	return f[0].String()
}
func (f fanOut) Set(s string) error {
	for _, v := range f {
		if err := v.Set(s); err != nil {
			return err
		}
	}
	return nil
}

// check refuses a track's flag given on the command line that the chosen
// track does not read.
func (tf trackFlags) check(fs *flag.FlagSet, track string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		owners, isTrackFlag := tf.owners[f.Name]
		if err != nil || !isTrackFlag || slices.Contains(owners, track) {
			return
		}
		err = fmt.Errorf("run: --%s belongs to --track %s; the %s track does not read it", f.Name, strings.Join(owners, " or "), track)
	})
	return err
}

// flagGiven reports whether the command line set the flag, even to its
// default value.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// episodesFlag is the grid's episodes per cell: the flag's value, or when
// it is 0 (its default) the track's default, which on the tracks with a
// fixed set of episodes is 0 for every one of them (bench.Options).
func episodesFlag(n int, t bench.Track) int {
	if n == 0 {
		return t.DefaultEpisodes()
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
	t := opts.Track
	unit := t.EpisodeUnit()
	cells, err := t.Cells(opts.Families, opts.Perturbations)
	if _, bounded := t.CellEpisodes(bench.Cell{}); !bounded || err != nil || len(cells) == 0 {
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
		have, _ := t.CellEpisodes(c)
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
