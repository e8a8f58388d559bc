package cli

import (
	"errors"
	"flag"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results"
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
		fmt.Fprint(fs.Output(), "Usage: ambibench report [flags] DIR\n\nReads DIR/records.jsonl, as ambibench run --out DIR writes it, and writes a\nMarkdown report to DIR/report.md and stdout: on the tabletop, paper 001's\nTable 2 (single robot, ADA and SR by ambiguity category, --table2-n episodes\neach) and Table 4 (two robots, partial observability, by what is out of\nview) and the noise perturbations apart; ADA and SR by agent and\nambiguity type, cost per episode, the household's success by trial and\nreflection statistics, partial observability by task family, the SG-CoT\nablations, the scene-size series, and McNemar's exact test between agents\non the same episodes. Every rate has its n and 95% Wilson interval.\nThe plots of the tracks present (ADA and SR by perturbation, success by\ntrial, tokens and time against scene size, Top-Any against map size), with\n95% intervals, are PNGs next to the report (see --plots), each linked under\nits section; a plot with nothing to show is not written.\n\nFlags:\n")
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
	if *cut != "" && !slices.Contains(results.Cuts(), *cut) {
		return fmt.Errorf("report: --cut %q: want one of %s", *cut, strings.Join(results.Cuts(), ", "))
	}
	dir := pos[0]
	if info, err := os.Stat(dir); err != nil {
		return fmt.Errorf("report: %w", err)
	} else if !info.IsDir() {
		return fmt.Errorf("report: %s is not a directory (want the DIR of ambibench run --out DIR)", dir)
	}
	path := filepath.Join(dir, "records.jsonl")
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	recs, err := results.ReadRecords(f, path)
	f.Close()
	switch {
	case errors.Is(err, results.ErrTruncated):
		// A killed run: what was written whole is still worth a report.
		fmt.Fprintf(stderr, "ambibench: report: %v; reporting the %d whole records before it\n", err, len(recs))
	case err != nil:
		return fmt.Errorf("report: %w", err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("report: %s holds no records", path)
	}
	ropts := results.ReportOptions{
		Perturbations:    perturb.Names(),
		Baseline:         *baseline,
		AllPairs:         *allPairs,
		Tracks:           trackReports(),
		Cut:              *cut,
		CategoryEpisodes: *table2N,
	}
	if ropts.Plots, err = writePlots(recs, ropts, dir, *out, *plots); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var b strings.Builder
	if err := results.Report(&b, recs, ropts); err != nil {
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
func trackReports() map[string]results.TrackReport {
	out := map[string]results.TrackReport{}
	for _, t := range bench.Tracks() {
		out[t.Name()] = t.Report()
	}
	return out
}

// plotFiles lists, for --plots' help, the plots of every registered
// track: "tabletop: ada_sr_by_perturbation.png, …; household: …".
func plotFiles() string {
	var parts []string
	for _, t := range bench.Tracks() {
		var files []string
		for _, p := range t.Report().Plots {
			files = append(files, p.File)
		}
		if len(files) > 0 {
			parts = append(parts, t.Name()+": "+strings.Join(files, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// reportBaselines says, for --baseline's help, which agent each track's
// workflows are compared with by default: "sgcot, on the household track
// reflexion".
func reportBaselines() string {
	var def string
	var others []string
	for _, t := range bench.Tracks() {
		b := t.Report().Baseline
		if b == "" {
			def = results.DefaultBaseline
			continue
		}
		others = append(others, "on the "+t.Name()+" track with "+b)
	}
	if def == "" {
		def = results.DefaultBaseline
	}
	return strings.Join(append([]string{def}, others...), ", ")
}
