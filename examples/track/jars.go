package jars

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/results/stats"
)

// Name is the track's name, as --track and the records spell it.
const Name = "jars"

func init() { bench.RegisterTrack(func() bench.Track { return &Track{Marbles: 6} }) }

// Track is the jars track. Its one family is "count"; its second
// dimension is how the jar is described: "listed" names every marble,
// "grouped" says how many of each colour there are.
type Track struct {
	bench.BaseTrack
	// Marbles is the most marbles a jar holds (--marbles).
	Marbles int
}

var colours = []string{"red", "blue", "green"}

func (*Track) Name() string    { return Name }
func (*Track) Summary() string { return "a toy: count the marbles of one colour in a jar" }

func (t *Track) Flags(fs *flag.FlagSet) {
	fs.IntVar(&t.Marbles, "marbles", 6, "jars: the most `marbles` a jar holds")
}

func (t *Track) Prepare(io.Writer) error {
	if t.Marbles < 1 {
		return fmt.Errorf("--marbles %d: must be at least 1", t.Marbles)
	}
	return nil
}

func (t *Track) Cells(families, views []string) ([]bench.Cell, error) {
	return grid(families, []string{"count"}, views, []string{"listed", "grouped"})
}

// grid crosses the families and views asked for with those there are.
func grid(families, haveFamilies, views, haveViews []string) ([]bench.Cell, error) {
	if len(families) == 0 {
		families = haveFamilies
	}
	if len(views) == 0 {
		views = haveViews
	}
	var cells []bench.Cell
	for _, f := range families {
		if !slices.Contains(haveFamilies, f) {
			return nil, fmt.Errorf("unknown jars family %q (have %v)", f, haveFamilies)
		}
		for _, v := range views {
			if !slices.Contains(haveViews, v) {
				return nil, fmt.Errorf("unknown jars view %q (have %v)", v, haveViews)
			}
			cells = append(cells, bench.Cell{Family: f, Perturbation: v})
		}
	}
	return cells, nil
}

func (*Track) CellEpisodes(bench.Cell) (int, bool) { return 0, false }

func (t *Track) Settings() (map[string]string, error) {
	return map[string]string{"marbles": strconv.Itoa(t.Marbles)}, nil
}

// jar draws episode index of a cell: the marbles, and the colour asked
// about.
func (t *Track) jar(seed uint64, c bench.Cell, index int) (marbles []string, asked string) {
	rng := bench.NewRand(bench.EpisodeSeed(seed, Name, c.Family, c.Perturbation, index))
	n := 1 + rng.IntN(t.Marbles)
	for range n {
		marbles = append(marbles, colours[rng.IntN(len(colours))])
	}
	return marbles, colours[rng.IntN(len(colours))]
}

func instruction(marbles []string, asked, view string) string {
	var b strings.Builder
	b.WriteString("The jar holds")
	if view == "grouped" {
		for i, c := range colours {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %d %s", count(marbles, c), c)
		}
	} else {
		for i, m := range marbles {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" a " + m)
		}
	}
	fmt.Fprintf(&b, ". How many %s marbles?", asked)
	return b.String()
}

func count(marbles []string, colour string) int {
	n := 0
	for _, m := range marbles {
		if m == colour {
			n++
		}
	}
	return n
}

// guessTool is the one tool of the track.
var guessTool = agents.Tool{Name: "guess", Description: "answer with the number of marbles",
	Schema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)}

// env is an agent's view of one jar.
type env struct {
	instruction string
	guessed     bool
	n           int
}

func (e *env) Instruction() string  { return e.instruction }
func (e *env) Robot() string        { return "agent" }
func (e *env) Partner() string      { return "" }
func (e *env) Tools() []agents.Tool { return []agents.Tool{guessTool} }
func (e *env) Call(ctx context.Context, call agents.ToolCall) (agents.Result, error) {
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	var a struct{ N *int }
	if call.Name != guessTool.Name || json.Unmarshal(call.Args, &a) != nil || a.N == nil {
		return bench.Refused("want guess with a number n"), nil
	}
	e.guessed, e.n = true, *a.N
	return agents.Result{Text: "Noted.", Ended: true}, nil
}

func (t *Track) RunEpisode(ctx context.Context, job bench.Job, opts bench.Options) (results.Record, error) {
	start := time.Now()
	marbles, asked := t.jar(opts.Seed, job.Cell, job.Index)
	a, err := bench.NewAgent(job, opts, agents.Config{Seed: bench.AgentSeed(job, opts, Name, job.Family, job.Perturbation, job.Index, job.Agent)})
	if err != nil {
		return results.Record{}, err
	}
	e := &env{instruction: instruction(marbles, asked, job.Perturbation)}
	ctx, tally := bench.EpisodeContext(ctx, job, opts)
	runErr, err := bench.PlayAgent(ctx, a, e, job.Key(opts.Seed, opts.ModelFor(job.Agent)))
	if err != nil {
		return results.Record{}, err
	}
	rec := bench.NewRecord(job, opts)
	rec.Label = "none"
	rec.Instruction = e.instruction
	rec.Objects = len(marbles)
	rec.Success = e.guessed && e.n == count(marbles, asked)
	rec.ADA = rec.Success
	rec.Steps = 1
	rec.WallMS = float64(time.Since(start).Microseconds()) / 1000
	if runErr != nil {
		rec.Error = runErr.Error()
	}
	bench.FinishRecord(&rec, runErr, tally)
	return rec, nil
}

// Report gives the track's records the rate and cost sections and one
// of its own.
func (*Track) Report() reports.Track {
	return reports.Track{Sections: []reports.Section{reports.SectionRates, reports.NewSection("jar_sizes", jarSizes), reports.SectionCost, reports.SectionRepeats}}
}

// jarSizes is the track's own report section: SR by the jar's size.
func jarSizes(w io.Writer, recs []results.Record) error {
	bySize := map[int]*stats.Rate{}
	for _, r := range recs {
		if bySize[r.Objects] == nil {
			bySize[r.Objects] = &stats.Rate{}
		}
		bySize[r.Objects].N++
		if r.Success {
			bySize[r.Objects].K++
		}
	}
	var sizes []int
	for n := range bySize {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	fmt.Fprintf(w, "## Success by jar size\n\n| marbles | SR | n |\n|---|---|---|\n")
	for _, n := range sizes {
		fmt.Fprintf(w, "| %d | %.2f | %d |\n", n, bySize[n].Value(), bySize[n].N)
	}
	_, err := fmt.Fprintln(w)
	return err
}
