package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	bsemmap "github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/compare"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/results/view"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

const viewUsage = `Usage: ambibench view [--serve ADDR] DIR
       ambibench view [--serve ADDR] BASE NEW

Writes a static site of the run in DIR to DIR/view/: index.html with the
run's settings (run.json), suite version and outcome counts, the report's
tables and its plots (drawn as SVG), and a table of every episode, filtered
by agent, track, family, perturbation, outcome and success, sorted by the
cost columns and exported as JSONL or CSV; and each episode's page under
DIR/view/episodes/ (a hundred episodes a page when the run kept no
transcripts) with its instruction, truth, what the agent did, its
questions and score (a semmap answer also on its map), and, when the run
kept transcripts (run --transcripts), every model call with the images
it showed, and a household game's text trial by trial with the
reflections between. The site needs no network and opens from the file
system: open DIR/view/index.html in a browser. make bench writes one
next to each of its reports.

With two directories, BASE and NEW, both sites are written and NEW's gets
compare.html: compare's table and the episodes whose outcome changed,
each linking to its page in both sites.

Flags:
  --serve ADDR  also serve the site (NEW's, with two directories) on ADDR,
                a loopback address such as 127.0.0.1:8080 (port 0 picks
                one), print its URL and serve until interrupted
`

// viewCmd is "ambibench view".
func viewCmd(stdout, stderr io.Writer, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return viewMain(ctx, stdout, stderr, args)
}

// viewMain is viewCmd until ctx is done, which stops --serve.
func viewMain(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench view", flag.ContinueOnError)
	serve := fs.String("serve", "", "")
	fs.Usage = func() { fmt.Fprint(fs.Output(), viewUsage) }
	var pos []string
	if done, err := parseFlags(fs, stdout, stderr, func() (err error) { pos, err = parseInterspersed(fs, args); return err }); done {
		return err
	}
	switch {
	case len(pos) == 0:
		return fmt.Errorf("view: missing DIR, the output directory of ambibench run --out DIR (see ambibench view --help)")
	case len(pos) > 2:
		return fmt.Errorf("view: want DIR, or BASE and NEW, got %d directories %q", len(pos), pos)
	}
	var ln net.Listener
	if *serve != "" {
		if err := loopback(*serve); err != nil {
			return fmt.Errorf("view: --serve %q: %w", *serve, err)
		}
		var err error
		if ln, err = net.Listen("tcp", *serve); err != nil {
			return fmt.Errorf("view: --serve: %w", err)
		}
		defer ln.Close()
	}
	runs := make([]view.Run, len(pos))
	for i, dir := range pos {
		var err error
		if runs[i], err = readViewRun(dir, stderr); err != nil {
			return err
		}
		runs[i].Compare = i == 1
	}
	var table string
	if len(runs) == 2 {
		var err error
		if table, err = viewCompare(runs[0], runs[1]); err != nil {
			return fmt.Errorf("view: %w", err)
		}
	}
	for _, run := range runs {
		s, err := view.Write(run)
		if err != nil {
			return fmt.Errorf("view: %w", err)
		}
		with, without := s.PerEpisode()
		kept := "no transcripts kept"
		if s.Transcripts {
			kept = fmt.Sprintf("%.0f bytes an episode with its transcript", with)
		}
		fmt.Fprintf(stdout, "wrote %s: %d episodes, %d files, %d bytes; %.0f bytes an episode without transcripts, %s\n",
			filepath.Join(s.Dir, "index.html"), s.Episodes, s.Files, s.Bytes, without, kept)
	}
	site := filepath.Join(runs[len(runs)-1].Dir, view.SiteDir)
	if len(runs) == 2 {
		path, err := view.WriteCompare(runs[0], runs[1], table)
		if err != nil {
			return fmt.Errorf("view: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	if ln == nil {
		return nil
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(site)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving %s at http://%s/ (interrupt to stop)\n", site, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("view: --serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("view: --serve: %w", err)
	}
	return nil
}

// loopback refuses an address that is not a loopback one: the site holds
// every prompt and reply of the run.
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("want a loopback address (127.0.0.1:PORT, [::1]:PORT or localhost:PORT), not %q", host)
}

// readViewRun reads the run in dir for its site: its report, as ambibench
// report writes it with its defaults, and its plots, drawn as SVG for the
// site (by file name), made as the records are read, as report makes
// them; the site reads the records again as it writes their pages, so
// that no more of them is held than the report keeps.
func readViewRun(dir string, stderr io.Writer) (view.Run, error) {
	rep := reports.New(reports.Options{
		Perturbations:    perturb.Names(),
		Tracks:           trackReports(),
		CategoryEpisodes: 100,
		SVG:              true,
	})
	maps := false
	rf, _, err := scanRunChecked(dir, "view", "showing", knownTrack, stderr, checkRunBits, func(r results.Record) error {
		maps = maps || r.Track == "semmap" && r.Map != ""
		return rep.Add(r)
	})
	if err != nil {
		return view.Run{}, fmt.Errorf("view: %w", err)
	}
	rep.SetShard(rf.Shard)
	plots := map[string][]byte{}
	links, err := rep.DrawPlots(func(file string, data []byte) (string, error) {
		plots[file] = data
		return file, nil
	})
	if err != nil {
		return view.Run{}, fmt.Errorf("view: %s: %w", dir, err)
	}
	rep.SetPlots(links)
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		return view.Run{}, fmt.Errorf("view: %s: %w", dir, err)
	}
	var m map[string][]view.MapObject
	if maps {
		m = viewMaps(rf, stderr)
	}
	return view.Run{Dir: dir, RunFile: rf, Records: rescan(dir), Report: b.String(), Plots: plots, Maps: m}, nil
}

// rescan reads again the records of the run in dir that [scanRun] has
// read and checked, for a reader that goes over them more than once: the
// checks are not made again, nor the notes written again.
func rescan(dir string) func(each func(*results.Record) error) error {
	return func(each func(*results.Record) error) error {
		_, _, err := scanRunChecked(dir, "view", "showing", nil, io.Discard, func(results.RunFile, string) func(int, results.Record) error { return nil },
			func(r results.Record) error { return each(&r) })
		return err
	}
}

// viewCompare is compare's Markdown of two runs, with compare's defaults.
func viewCompare(base, new view.Run) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "BASE `%s`, NEW `%s`", base.Dir, new.Dir)
	compared, err := compare.Settings(base.RunFile, new.RunFile, false)
	if err != nil {
		return "", fmt.Errorf("compare %s %s: %w", base.Dir, new.Dir, err)
	}
	for _, c := range compared {
		fmt.Fprintf(&b, "; %s %s in BASE, %s in NEW", c.Name, c.Old, c.New)
	}
	b.WriteString("\n\n")
	stream := compare.NewStream(compare.Options{Alpha: 0.05, MinEffect: 0.05})
	if _, _, err := pairRuns(base.Dir, new.Dir, stream, io.Discard); err != nil {
		return "", fmt.Errorf("compare %s %s: %w", base.Dir, new.Dir, err)
	}
	res, err := stream.Result()
	if err != nil {
		return "", fmt.Errorf("compare %s %s: %w", base.Dir, new.Dir, err)
	}
	if err := compare.WriteMarkdown(&b, res); err != nil {
		return "", err
	}
	return b.String(), nil
}

// viewMaps are the maps of a semmap run, for its episodes' pages: the
// built-in dataset's, or those of the folder run.json's data setting
// names, for a run with a semmap record on a map. A folder that no
// longer reads is said on stderr and its maps are not drawn (nil).
func viewMaps(rf results.RunFile, stderr io.Writer) map[string][]view.MapObject {
	var d *mapqueries.Dataset
	switch data := rf.Settings["data"]; data {
	case "", "builtin":
		d = mapqueries.Builtin(bsemmap.BuiltinSeed)
	default:
		var err error
		if d, err = mapqueries.LoadDataset(data); err != nil {
			fmt.Fprintf(stderr, "view: the maps are not drawn: %v\n", err)
			return nil
		}
	}
	out := map[string][]view.MapObject{}
	for _, m := range d.Maps {
		objs := make([]view.MapObject, 0, len(m.Instances))
		for _, in := range m.Instances {
			objs = append(objs, view.MapObject{ID: in.ID, Class: in.Best(),
				X: in.Center[0], Y: in.Center[1], W: in.Size[0], H: in.Size[1]})
		}
		out[m.Name] = objs
	}
	return out
}
