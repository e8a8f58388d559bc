package semmap

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// BuiltinSeed fixes the built-in dataset.
const BuiltinSeed = 1

// Track is the semmap track: queries on object-level semantic maps, whose
// families are the query types and whose episodes are a dataset's (map,
// query) pairs, shown in one input mode or both; scored by Top-k.
type Track struct {
	// Dataset holds the maps, queries and their annotated answers: what
	// Prepare loads from DataDir, or, when nil, the built-in dataset, made
	// on first use (so that listing the tracks builds no dataset).
	Dataset *mapqueries.Dataset
	// DataDir is the folder Dataset was read from; empty for the
	// built-in dataset.
	DataDir string
	// Modes are the input modes to run; empty means certainty alone.
	Modes []string
	// Examples, when set, are the in-context example counts of every
	// workflow's planning, reflection and refinement prompts for the run;
	// unset, each workflow carries paper 000's (3, 7, 3).
	Examples *[3]int
	// Attempts, when positive, is how many times every LLM workflow asks
	// for a JSON answer (a plan, a refinement, an ensemble's sample)
	// while the reply cannot be read, for the run; 0 leaves each
	// workflow's own (paper 000's 10).
	Attempts int

	modesFlag, examplesFlag string
	once                    sync.Once
}

// dataset is Dataset, or the built-in one when none was given.
func (t *Track) dataset() *mapqueries.Dataset {
	t.once.Do(func() {
		if t.Dataset == nil {
			t.Dataset = mapqueries.Builtin(BuiltinSeed)
		}
	})
	return t.Dataset
}

// New returns the semmap track on the built-in dataset.
func New() *Track { return &Track{} }

// NewWith returns the semmap track on a dataset.
func NewWith(d *mapqueries.Dataset) *Track { return &Track{Dataset: d} }

func (*Track) Name() string { return Name }
func (*Track) Summary() string {
	return "object-level semantic maps and queries, Top-k (--track semmap [--data DIR])"
}

func (t *Track) Flags(fs *flag.FlagSet) {
	fs.StringVar(&t.DataDir, "data", "", "semmap: a dataset `dir` in the public layout (semantic_maps/, queries.yaml, responses/); default: the built-in dataset")
	fs.StringVar(&t.examplesFlag, "examples", "", "semmap: in-context example `counts` plan,reflect,refine of the LLM workflows' prompts (default paper 000's 3,7,3; 2,0,0 is ambibench's earlier protocol)")
	fs.IntVar(&t.Attempts, "attempts", 0, "semmap: `n` attempts of the LLM workflows at each JSON answer while the reply cannot be read (default paper 000's 10; 1 never asks again)")
	fs.StringVar(&t.modesFlag, "modes", "", "semmap: comma-separated input `modes`, certainty and/or uncertainty (default certainty)")
}

// Prepare loads --data and prints the faults its loader tolerated.
func (t *Track) Prepare(stderr io.Writer) error {
	if t.DataDir != "" {
		d, err := mapqueries.LoadDataset(t.DataDir)
		if err != nil {
			return fmt.Errorf("--data: %w", err)
		}
		t.Dataset = d
	}
	if t.examplesFlag != "" {
		c, err := parseExamples(t.examplesFlag)
		if err != nil {
			return fmt.Errorf("--examples: %w", err)
		}
		t.Examples = &c
	}
	if t.Attempts < 0 {
		return fmt.Errorf("--attempts %d: want a number of attempts, 1 or more", t.Attempts)
	}
	for _, m := range strings.Split(t.modesFlag, ",") {
		if m = strings.TrimSpace(m); m != "" {
			t.Modes = append(t.Modes, m)
		}
	}
	// "," names no mode; left as it is, the empty list would mean the
	// default, certainty alone, when the user meant to name some.
	if strings.TrimSpace(t.modesFlag) != "" && len(t.Modes) == 0 {
		return fmt.Errorf("--modes %q: names no input mode; name some (%s), or leave the flag out for certainty alone", t.modesFlag, strings.Join(Modes, ", "))
	}
	if d := t.dataset(); d != nil {
		for _, w := range d.Warnings {
			fmt.Fprintf(stderr, "ambibench: warning: dataset %s: %s\n", d.Name, w)
		}
	}
	return nil
}

// Cells are the dataset's (query type, input mode) cells; the second
// dimension is Modes, not perturbations.
func (t *Track) Cells(families, perturbations []string) ([]bench.Cell, error) {
	if len(perturbations) > 0 {
		return nil, fmt.Errorf("the semmap track takes no perturbations; its second dimension is the input modes (--modes)")
	}
	return SemmapCells(t.dataset(), families, t.Modes)
}

func (t *Track) CellEpisodes(c bench.Cell) (int, bool) {
	return len(semmapPairs(t.dataset(), c.Family)), true
}

func (*Track) EpisodeUnit() string { return "pairs" }
func (*Track) FamilyTable() bool   { return false } // the table has a row per query type already

func (t *Track) Settings() (map[string]string, error) {
	s := map[string]string{"data": "builtin"}
	if t.Examples != nil && *t.Examples != paperExamples {
		// Runs with other counts are other protocols; their records must
		// not mix with the default's. The default's counts given as a
		// flag are the default: a run resumed with them, or without them,
		// is the same run.
		s["examples"] = fmt.Sprintf("%d,%d,%d", t.Examples[0], t.Examples[1], t.Examples[2])
	}
	if t.Attempts > 0 && t.Attempts != paperAttempts {
		// Like the example counts: another protocol, whose records must
		// not mix with the default's.
		s["attempts"] = strconv.Itoa(t.Attempts)
	}
	if d := t.dataset(); d != nil {
		s["dataset"] = d.Name
	}
	if t.DataDir != "" {
		var err error
		if s["data"], err = filepath.Abs(t.DataDir); err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		if s["data_hash"], err = hashDir(t.DataDir); err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
	}
	return s, nil
}

// Table is Top-k by agent, input mode and query type.
func (*Track) Table(w io.Writer, recs []results.Record, _ bench.TableSpec) error {
	return reports.TopKMarkdown(w, recs)
}

// SummaryTail lists the faults the dataset's loader tolerated.
func (t *Track) SummaryTail() string {
	d := t.dataset()
	if d == nil || len(d.Warnings) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Dataset warnings\n\nDataset %s loaded with %d warnings:\n\n", d.Name, len(d.Warnings))
	for _, w := range d.Warnings {
		fmt.Fprintf(&b, "- %s\n", w)
	}
	b.WriteString("\n")
	return b.String()
}

// reflectionBaseline is the workflow the reflection workflows are set
// against in the report's over-reflection section: the agentic-workflows
// paper's baseline, which does not reflect. The track names no baseline
// for the paired comparisons.
const reflectionBaseline = "baseline"

// Report gives the semmap sections (Top-k, against map size,
// over-reflection against the baseline workflow, cost, repeats), its plot
// and its words.
func (*Track) Report() reports.Track {
	return reports.Track{Sections: []reports.Section{reports.SectionTopK, reports.SectionMapSize, reports.SectionOverReflection(reflectionBaseline), reports.SectionCost, reports.SectionRepeats},
		Plots: []reports.Plot{reports.PlotMapSize}, Words: reports.Words{Families: "query types", Perturbations: "input modes",
			ADA: "the answer's Top-1 (a semmap record's ada is its Top-1).", SR: "the answer's Top-1."}}
}

// modeDescriptions say what each input mode shows the agent.
var modeDescriptions = map[string]string{
	agents.ModeCertainty:   "each object of the map with its most probable class alone (the default)",
	agents.ModeUncertainty: "each object with its whole class distribution, as probabilities",
}

// List names the query types, the track's task families, and the input
// modes, its second dimension (--modes), without building a dataset.
func (*Track) List(w io.Writer) {
	fmt.Fprintln(w, "\nQUERY TYPES (semmap; episodes are the dataset's (map, query) pairs, the built-in one or --data DIR)")
	for _, q := range mapqueries.QueryTypes() {
		fmt.Fprintf(w, "  %s\t%s\n", q, queryTypeDescriptions[q])
	}
	fmt.Fprintln(w, "\nINPUT MODES (semmap; --modes, in place of perturbations)")
	for _, m := range Modes {
		fmt.Fprintf(w, "  %s\t%s\n", m, modeDescriptions[m])
	}
}

// queryTypeDescriptions say what each query type asks.
var queryTypeDescriptions = map[string]string{
	mapqueries.TypeDescriptive: "asks for objects by what they are (\"Is there a refrigerator?\")",
	mapqueries.TypeAffordance:  "asks for objects by what they are for (\"I am tired, where can I sit?\")",
	mapqueries.TypeNegation:    "asks with an exclusion (\"something to sit on that is not a chair\")",
}

// Metrics are Top1, Top2, Top3, TopAny (higher is better), calls/op and
// tokens/op (lower is better).
func (*Track) Metrics(recs []results.Record) []bench.Metric {
	var t1, t2, t3, ta, calls, tokens float64
	for _, r := range recs {
		t1 += b2f(r.Top1)
		t2 += b2f(r.Top2)
		t3 += b2f(r.Top3)
		ta += b2f(r.TopAny)
		calls += float64(r.Calls)
		tokens += float64(r.InputTokens + r.OutputTokens)
	}
	n := float64(max(len(recs), 1))
	hi, lo := bench.HigherIsBetter, bench.LowerIsBetter
	return []bench.Metric{metric(t1/n, "Top1", hi), metric(t2/n, "Top2", hi), metric(t3/n, "Top3", hi), metric(ta/n, "TopAny", hi),
		metric(calls/n, "calls/op", lo), metric(tokens/n, "tokens/op", lo)}
}

// BenchmarkName is agent=…/qtype=…: the benchmarks run one input mode.
func (*Track) BenchmarkName(agent string, c bench.Cell) string {
	return "agent=" + bench.SanitizeName(agent) + "/qtype=" + bench.SanitizeName(c.Family)
}

func metric(v float64, unit, better string) bench.Metric {
	return bench.Metric{Value: v, Unit: unit, Better: better}
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// paperExamples are the counts every workflow carries when --examples
// is left out, agents/semmap.PaperExamples (TestPaperExamplesAreTheDefault
// holds the two together).
var paperExamples = [3]int{3, 7, 3}

// paperAttempts is the attempts every workflow makes when --attempts is
// left out, agents/semmap.PaperAttempts (TestPaperAttemptsAreTheDefault
// holds the two together).
const paperAttempts = 10

// parseExamples reads --examples: three counts, none negative.
func parseExamples(s string) ([3]int, error) {
	var c [3]int
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return c, fmt.Errorf("%q: want three counts plan,reflect,refine (e.g. 3,7,3)", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return c, fmt.Errorf("%q: count %q is not a whole number of examples", s, p)
		}
		c[i] = n
	}
	return c, nil
}

// hashDir hashes the files under dir, names and contents, in path order:
// what a run.json names a dataset folder by, so that a folder edited
// between two runs is caught.
func hashDir(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "%q\n", filepath.ToSlash(rel))
		n, err := io.Copy(h, f)
		fmt.Fprintf(h, "\n%d\n", n)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}
