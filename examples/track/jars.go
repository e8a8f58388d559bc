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

// Cells crosses the families and views asked for (all of them when none
// is) and refuses those the track does not have.
func (*Track) Cells(families, views []string) ([]bench.Cell, error) {
	haveFamilies, haveViews := []string{"count"}, []string{"listed", "grouped"}
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

// NewEpisode draws the job's jar: the marbles, and the colour asked about.
// bench.RunEpisode makes the agent, plays it in the jar and fills the
// record's common fields; the jar scores the rest.
func (t *Track) NewEpisode(_ context.Context, job bench.Job, opts bench.Options) (bench.Episode, error) {
	rng := bench.NewRand(bench.EpisodeSeed(opts.Seed, Name, job.Family, job.Perturbation, job.Index))
	j := &jar{}
	for range 1 + rng.IntN(t.Marbles) {
		j.marbles = append(j.marbles, colours[rng.IntN(len(colours))])
	}
	j.asked = colours[rng.IntN(len(colours))]
	j.instruction = instruction(j.marbles, j.asked, job.Perturbation)
	return j, nil
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

// jar is one episode (a bench.Episode) and the agent's view of it (its
// agents.Env).
type jar struct {
	marbles            []string
	asked, instruction string
	guessed            bool
	n                  int
}

// Env is the jar itself; the agent has bench's default config and seed.
func (j *jar) Env(agents.Agent, bench.NewAgentFunc) (agents.Env, error) { return j, nil }

// Score fills the record's fields that are the track's own.
func (j *jar) Score(rec *results.Record, _ error) {
	rec.Label, rec.Instruction, rec.Objects, rec.Steps = "none", j.instruction, len(j.marbles), 1
	rec.Success = j.guessed && j.n == count(j.marbles, j.asked)
	rec.ADA = rec.Success
}

func (j *jar) Instruction() string  { return j.instruction }
func (j *jar) Robot() string        { return "agent" }
func (j *jar) Partner() string      { return "" }
func (j *jar) Tools() []agents.Tool { return []agents.Tool{guessTool} }
func (j *jar) Call(ctx context.Context, call agents.ToolCall) (agents.Result, error) {
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	var a struct{ N *int }
	if call.Name != guessTool.Name || json.Unmarshal(call.Args, &a) != nil || a.N == nil {
		return bench.Refused("want guess with a number n"), nil
	}
	j.guessed, j.n = true, *a.N
	return agents.Result{Text: "Noted.", Ended: true}, nil
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
