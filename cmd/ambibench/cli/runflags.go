package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
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
		return bench.DefaultEpisodes(t)
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
	unit := bench.EpisodeUnit(t)
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

// checkListFlags refuses a list flag given a value that names nothing:
// --agents "" or "," would otherwise run every agent (an empty list is
// bench.Jobs's "all"), and --tasks "," or --perturbations "," every
// family or perturbation, when the user meant to name some. --tasks ""
// and --perturbations "" are their defaults, and left alone.
func checkListFlags(fs *flag.FlagSet) error {
	for _, name := range []string{"agents", "tasks", "perturbations"} {
		f := fs.Lookup(name)
		if f == nil || !flagGiven(fs, name) || len(splitList(f.Value.String())) > 0 {
			continue
		}
		v := f.Value.String()
		switch {
		case name == "agents":
			return fmt.Errorf("run: --agents %q: names no agent; name some (ambibench list shows them) or write all", v)
		case strings.TrimSpace(v) != "":
			return fmt.Errorf("run: --%s %q: names no %s; name some, or leave the flag out for all of them", name, v, map[string]string{"tasks": "task family", "perturbations": "perturbation"}[name])
		}
	}
	return nil
}

// checkMembersFlag refuses --ensemble-models given a value with no spec
// in it (","): the ensemble would then sample from --model alone, as if
// the flag were not there.
func checkMembersFlag(fs *flag.FlagSet, value string) error {
	if flagGiven(fs, "ensemble-models") && strings.TrimSpace(value) != "" && len(splitModelSpecs(value)) == 0 {
		return fmt.Errorf("run: --ensemble-models %q: names no model spec; write specs separated by commas, or leave the flag out to sample from --model alone", value)
	}
	return nil
}

// checkNamedCells refuses a perturbation of --perturbations, or a
// family of --tasks, that the grid plays no cell of: the grid keeps only
// the cells where a perturbation applies (partial_observability needs
// two robots; a --data folder holds the cells it holds), so a name that
// meets none would be dropped unseen, and when every name is, the run
// would print "No results." and exit 0. The error says where the
// perturbation does apply, and whether the grid is empty. An empty grid
// with every name playing (cells without episodes) is refused too.
func checkNamedCells(opts bench.Options, jobs int) error {
	t := opts.Track
	outcome := "it would play nothing"
	if jobs == 0 {
		outcome = "the grid is empty"
	}
	for _, p := range opts.Perturbations {
		cells, err := t.Cells(opts.Families, []string{p})
		switch {
		case err != nil:
			return fmt.Errorf("run: --perturbations %s: %v; %s", p, err, outcome)
		case len(cells) > 0:
			continue
		}
		msg := fmt.Sprintf("run: --perturbations %s: applies to no task family of --tasks %s (%s); %s",
			p, strings.Join(opts.Families, ","), appliesTo(t, p), outcome)
		if len(opts.Families) == 0 {
			msg = fmt.Sprintf("run: --perturbations %s: applies to no task family of the %s track; %s", p, t.Name(), outcome)
		}
		return errors.New(msg)
	}
	for _, f := range opts.Families {
		cells, err := t.Cells([]string{f}, opts.Perturbations)
		switch {
		case err != nil:
			return fmt.Errorf("run: --tasks %s: %v; %s", f, err, outcome)
		case len(cells) == 0:
			return fmt.Errorf("run: --tasks %s: no perturbation of --perturbations %s applies to it; %s", f, strings.Join(opts.Perturbations, ","), outcome)
		}
	}
	if jobs == 0 {
		cells, _ := t.Cells(opts.Families, opts.Perturbations)
		return fmt.Errorf("run: the grid is empty: its %d %s hold no episode", len(cells), plural(len(cells), "cell", "cells"))
	}
	return nil
}

// appliesTo says which task families of the track perturbation p
// applies to.
func appliesTo(t bench.Track, p string) string {
	cells, err := t.Cells(nil, []string{p})
	var fams []string
	for _, c := range cells {
		if !slices.Contains(fams, c.Family) {
			fams = append(fams, c.Family)
		}
	}
	if err != nil || len(fams) == 0 {
		return "it applies to none of the " + t.Name() + " track"
	}
	return "it applies to " + strings.Join(fams, ", ") + " only"
}

// checkSceneSizes refuses a tabletop --scene-sizes that a cell of the
// grid cannot be built at (tabletop.CheckSceneSizes says why).
func checkSceneSizes(opts bench.Options) error {
	tt, ok := opts.Track.(*tabletop.Track)
	if !ok {
		return nil
	}
	cells, err := tt.Cells(opts.Families, opts.Perturbations)
	if err != nil {
		return nil // bench.Jobs has said what is wrong
	}
	if err := tabletop.CheckSceneSizes(opts.Seed, cells); err != nil {
		return fmt.Errorf("run: --scene-sizes: %w", err)
	}
	return nil
}
