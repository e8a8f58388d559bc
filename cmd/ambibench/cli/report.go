package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
)

// reportCmd reads DIR/records.jsonl and writes the report to DIR/report.md
// (or --out) and to stdout.
func reportCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the report to `file` instead of DIR/report.md; - writes it to stdout only")
	baseline := fs.String("baseline", "", "compare every other agent with this `agent`, pair by pair on the same episodes (default, track by track: the workflow agents with "+reportBaselines()+", where it ran)")
	allPairs := fs.Bool("all-pairs", false, "compare every pair of agents instead of each with the baseline")
	cut := fs.String("cut", "", "add a published cut of the household results: dyref, DyRef's (the clear games less pick-two; SR@1, SR@4, Cost_ref@4, Rate_rev@4; docs/metrics.md)")
	table2N := fs.Int("table2-n", 100, "tabletop: episodes per ambiguity category in the single-robot table (paper 001's Table 2 has 100 per category), spread evenly over the single-robot families, the episodes of lowest index of each; 0 pools every episode")
	plots := fs.String("plots", "", "write the plots ("+plotFiles()+") to `dir`; - writes none (default: the report's directory, DIR unless --out says otherwise; none with --out -)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: ambibench report [flags] DIR\n\nReads DIR/records.jsonl and DIR/run.json, as ambibench run --out DIR writes\nthem (or a stored baseline's records.jsonl.gz; not both), and writes a\nMarkdown report to DIR/report.md and stdout: on the tabletop, paper 001's\nTable 2 (single robot, ADA and SR by ambiguity category, --table2-n episodes\neach) and Table 4 (two robots, partial observability, by what is out of\nview) and the noise perturbations apart; ADA and SR by agent and ambiguity\ntype, cost per episode, the household's success by trial and reflection\nstatistics, partial observability by task family, the SG-CoT ablations, the\nscene-size series, and McNemar's exact test between agents on the same\nepisodes. Every rate has its n and 95% Wilson interval. The plots of the\ntracks present (ADA and SR by perturbation, success by trial, tokens and\ntime against scene size, Top-Any against map size), with 95% intervals, are\nPNGs next to the report (see --plots), each linked under its section; a plot\nwith nothing to show is not written.\n\nEach record must be of the run DIR/run.json describes (its track, seed,\nsuite and grid); one that is not, or an episode recorded twice, is\nrefused, named by file and line. The report of one shard's directory\n(run --shard) says so under its title.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var pos []string
	if done, err := parseFlags(fs, stdout, stderr, func() (err error) { pos, err = parseInterspersed(fs, args); return err }); done {
		return err
	}
	switch {
	case len(pos) == 0:
		return fmt.Errorf("report: missing DIR, the output directory of ambibench run --out DIR")
	case len(pos) > 1:
		return fmt.Errorf("report: unexpected arguments %q after DIR %q", pos[1:], pos[0])
	}
	if *allPairs && *baseline != "" {
		return fmt.Errorf("report: --baseline %q and --all-pairs: give one or the other", *baseline)
	}
	if *table2N < 0 {
		return fmt.Errorf("report: --table2-n %d: want 0 (every episode) or more", *table2N)
	}
	if cuts := reports.Cuts(trackReports()); *cut != "" && !slices.Contains(cuts, *cut) {
		return fmt.Errorf("report: --cut %q: want one of %s", *cut, strings.Join(cuts, ", "))
	}
	dir := pos[0]
	rep := reports.New(reports.Options{
		Perturbations:    perturb.Names(),
		Baseline:         *baseline,
		AllPairs:         *allPairs,
		Tracks:           trackReports(),
		Cut:              *cut,
		CategoryEpisodes: *table2N,
	})
	// The records are added to the report as they are read, and kept
	// packed, and an episode twice is looked for a bit an episode: the
	// report of a run of millions of episodes fits in memory.
	rf, _, err := scanRunChecked(dir, "report", "reporting", knownTrack, stderr, checkRunBits, rep.Add)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if sh := rf.Shard; sh != nil {
		fmt.Fprintf(stderr, "ambibench: report: %s is shard %d/%d of a run, and the report is of its part of the grid alone (it says so under its title); ambibench merge --out OUT joins the shards' directories into the whole run, to report on\n",
			dir, sh.Index, sh.Count)
	}
	rep.SetShard(rf.Shard)
	links, err := writePlots(rep, dir, *out, *plots)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	rep.SetPlots(links)
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		return err
	}
	if *out != "-" {
		dest := *out
		if dest == "" {
			dest = filepath.Join(dir, "report.md")
		}
		if err := os.WriteFile(dest, []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	fmt.Fprint(stdout, b.String())
	return nil
}

// parseInterspersed parses flags wherever they stand among the arguments,
// so that "report DIR --out x" works as well as "report --out x DIR"; a lone
// "--" ends the flags. It returns the positional arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// trackReports are the report sections of every registered track.
func trackReports() map[string]reports.Track {
	out := map[string]reports.Track{}
	for _, t := range bench.Tracks() {
		out[t.Name()] = bench.Report(t)
	}
	return out
}

// plotFiles lists, for --plots' help, the plots of every registered
// track: "tabletop: ada_sr_by_perturbation.png, …; household: …".
func plotFiles() string {
	var parts []string
	for _, t := range bench.Tracks() {
		var files []string
		for _, p := range bench.Report(t).Plots {
			files = append(files, p.File)
		}
		if len(files) > 0 {
			parts = append(parts, t.Name()+": "+strings.Join(files, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// reportBaselines says, for --baseline's help, which agent each track's
// workflows are compared with by default, as the tracks name them:
// "sgcot on the tabletop track, with reflexion on the household track".
func reportBaselines() string {
	var parts []string
	for _, t := range bench.Tracks() {
		if b := bench.Report(t).Baseline; b != "" {
			parts = append(parts, b+" on the "+t.Name()+" track")
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", with ")
}

// knownTrack refuses a run.json that names a track this build does not
// have: its records would get none of their track's sections.
func knownTrack(rf results.RunFile) error {
	have := bench.TrackNames()
	if track, ok := rf.Settings["track"]; ok && !slices.Contains(have, track) {
		return fmt.Errorf("field \"settings.track\": %q is not a track of this build (have %s)", track, strings.Join(have, ", "))
	}
	return nil
}
