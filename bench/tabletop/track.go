package tabletop

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/scenes/camera"
	"github.com/ambibench/ambibench/tasks"
)

// Track is the tabletop track: a physics table of blocks and bowls, one
// robot or two, the task families of package tasks under the
// perturbations of package perturb, scored by ADA and SR.
type Track struct {
	// StepLimit is the tool calls per episode, both robots together,
	// before it ends (DefaultStepLimit if zero).
	StepLimit int
	// SceneSizes are the table sizes to run each cell at, in objects
	// (distractors added); empty: the family's own size only.
	SceneSizes []int
	// Perception is how the workflows that perceive the table (SG-CoT and
	// its ablations, CLARA, Inner Monologue, ProgPrompt) do it:
	// agents.PerceptionImage ("" too), as their papers ran them, or
	// agents.PerceptionDetector, for a model that takes no image.
	Perception string
	// AskRobotFirst has the two-robot prompts of the workflows also tell
	// the robot to ask the other robot before telling the person anything
	// is absent (agents.Config.AskRobotFirst): an ordering the SG-CoT
	// paper does not give, off by default.
	AskRobotFirst bool
	// Calibration is the calibration split agents fit thresholds on; nil
	// makes one per suite seed, shared by every episode of that seed
	// played on this value.
	Calibration *Calibration

	sizesFlag string
	mu        sync.Mutex
	bySeed    map[uint64]*Calibration
}

// New returns the tabletop track with its default settings.
func New() *Track { return &Track{StepLimit: DefaultStepLimit} }

func (*Track) Name() string    { return Name }
func (*Track) Summary() string { return "physics table of blocks and bowls, one or two robots" }

func (t *Track) Flags(fs *flag.FlagSet) {
	fs.IntVar(&t.StepLimit, "step-limit", DefaultStepLimit, "tool calls per episode, both robots together, before it ends")
	fs.StringVar(&t.Perception, "perception", agents.PerceptionImage, "how the workflows that perceive (sgcot and its ablations, clara, inner-monologue, progprompt) see the table: `image` (the robot's camera image, read by the model, as their papers ran them: the model must take images) or detector (the object detector's list, with positions: for a text-only model)")
	fs.BoolVar(&t.AskRobotFirst, "ask-robot-first", false, "two-robot prompts (direct, sgcot and its ablations, inner-monologue, progprompt) also tell the robot to ask the other robot before telling the person anything is absent; the SG-CoT paper (section 4.3) says only that a robot that cannot see its target asks the other robot and uses the shared workspace, and gives no such ordering")
	fs.StringVar(&t.sizesFlag, "scene-sizes", "", fmt.Sprintf("comma-separated table `sizes`, in objects with distractors added, each a grid dimension (0: the family's own size; at most %d; default: own size only)", MaxSceneSize))
}

func (t *Track) Prepare(io.Writer) error {
	if t.StepLimit < 1 {
		return fmt.Errorf("--step-limit %d: must be at least 1", t.StepLimit)
	}
	switch t.Perception {
	case "", agents.PerceptionDetector, agents.PerceptionImage:
	default:
		return fmt.Errorf("--perception %q: want %s or %s", t.Perception, agents.PerceptionDetector, agents.PerceptionImage)
	}
	if t.sizesFlag != "" {
		sizes, err := ParseSceneSizes(t.sizesFlag)
		if err != nil {
			return fmt.Errorf("--scene-sizes %q: %w", t.sizesFlag, err)
		}
		t.SceneSizes = sizes
	}
	return nil
}

func (t *Track) Cells(families, perturbations []string) ([]bench.Cell, error) {
	return Cells(families, perturbations, t.SceneSizes...)
}

func (*Track) CellEpisodes(bench.Cell) (int, bool) { return 0, false }

func (t *Track) stepLimit() int {
	if t.StepLimit <= 0 {
		return DefaultStepLimit
	}
	return t.StepLimit
}

func (t *Track) calibration(seed uint64, workers int) *Calibration {
	if t.Calibration != nil {
		return t.Calibration
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bySeed == nil {
		t.bySeed = map[uint64]*Calibration{}
	}
	if t.bySeed[seed] == nil {
		t.bySeed[seed] = NewCalibration(seed, 0)
		t.bySeed[seed].workers = workers
	}
	return t.bySeed[seed]
}

func (t *Track) Settings() (map[string]string, error) {
	s := map[string]string{"step_limit": strconv.Itoa(t.stepLimit())}
	// Recorded when it is not the detector, so that the run.json of every
	// run made before the option existed still reads as its settings.
	if t.perception() == agents.PerceptionImage {
		s["perception"] = agents.PerceptionImage
		// The camera the robots see through (each robot's own view of
		// it), so that runs with another camera never mix.
		opt := camera.DefaultOptions().Resolved()
		opt.Robot = ""
		cam, err := json.Marshal(opt)
		if err != nil {
			return nil, err
		}
		s["camera"] = string(cam)
	}
	// Recorded when set, as the household's feedback is: off is the
	// default, and a run that sets it is refused on a directory of runs
	// without it, and the other way round.
	if t.AskRobotFirst {
		s["ask_robot_first"] = "true"
	}
	return s, nil
}

// Images reports whether the run perceives through the camera image
// (bench.ImageTrack).
func (t *Track) Images() bool { return t.perception() == agents.PerceptionImage }

func (t *Track) perception() string {
	if t.Perception == "" {
		return agents.PerceptionImage
	}
	return t.Perception
}

func (t *Track) SummaryNote() string { return fmt.Sprintf(", step limit %d", t.stepLimit()) }

// SummaryTail gives the thresholds the run's agents fitted on its
// calibration split (CLARA's), which no record holds: a run on another
// model fits its own, and a paper's table sits beside a number only with
// the threshold that made it. A run that played no episode of such an
// agent (a resumed run with those recorded already) fitted none.
func (t *Track) SummaryTail() string {
	var fits []Fit
	if t.Calibration != nil {
		fits = t.Calibration.Fits()
	} else {
		t.mu.Lock()
		seeds := slices.Sorted(maps.Keys(t.bySeed))
		cals := make([]*Calibration, len(seeds))
		for i, s := range seeds {
			cals[i] = t.bySeed[s]
		}
		t.mu.Unlock()
		for _, c := range cals {
			fits = append(fits, c.Fits()...)
		}
	}
	if len(fits) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Calibration\n\nThresholds fitted on the run's calibration split (episodes of a seed of their own, whose calls are in no record): an agent asks above its threshold.\n\n")
	b.WriteString("| agent/model | episodes | ambiguous | threshold | balanced accuracy |\n|---|---|---|---|---|\n")
	for _, f := range fits {
		fmt.Fprintf(&b, "| %s | %d | %d | %.3f | %.2f |\n", f.Key, f.Episodes, f.Ambiguous, f.Threshold, f.Accuracy)
	}
	return b.String()
}

func (*Track) List(w io.Writer) {
	fmt.Fprintln(w, "\nTASK FAMILIES (tabletop)")
	for _, f := range tasks.All() {
		fmt.Fprintf(w, "  %s\t%s\n", f.Name(), f.Description())
	}
	fmt.Fprintln(w, "\nPERTURBATIONS (tabletop)")
	for _, p := range perturb.ForTabletop() {
		fmt.Fprintf(w, "  %s\t%s\n", p.Name(), p.Description())
	}
}

// Table's columns default to every perturbation, in registry order.
func (*Track) Table(w io.Writer, recs []results.Record, spec bench.TableSpec) error {
	if len(spec.Perturbations) == 0 {
		spec.Perturbations = perturb.Names()
	}
	return bench.RateTable(w, recs, spec)
}

// Tally is Table a record at a time (bench.Tallier), with Table's columns.
func (*Track) Tally(spec bench.TableSpec) bench.Tally {
	if len(spec.Perturbations) == 0 {
		spec.Perturbations = perturb.Names()
	}
	return bench.NewRateTally(spec)
}

// DefaultBaseline is the agent the tabletop's workflows are compared with
// in a report: SG-CoT, the workflow of the paper the track reproduces.
const DefaultBaseline = "sgcot"

// ablationGroup starts the names of SG-CoT and its ablations
// (sgcot-full-graph, sgcot-no-edges, …), which the report sets side by
// side.
const ablationGroup = "sgcot"

// Report gives the tabletop's sections (paper 001's Tables 2 and 4, the
// noise perturbations apart, perception, the rates, cost, SG-CoT's
// ablations, the scene-size series, repeats), its plots, and SG-CoT as
// the baseline of the paired comparisons.
func (*Track) Report() reports.Track {
	var noise, twoRobots []string
	for _, p := range perturb.ForTabletop() {
		if perturb.IsNoise(p.Name()) {
			noise = append(noise, p.Name())
		}
	}
	for _, f := range tasks.All() {
		if f.TwoRobots() {
			twoRobots = append(twoRobots, f.Name())
		}
	}
	return reports.Track{
		Sections: []reports.Section{reports.SectionSingleRobot, reports.SectionPartialObservability,
			reports.SectionRobustness, reports.SectionPerception, reports.SectionRates, reports.SectionCost,
			reports.SectionAblations(ablationGroup, "SG-CoT ablations"), reports.SectionSceneSize, reports.SectionRepeats},
		Baseline:         DefaultBaseline,
		Plots:            []reports.Plot{reports.PlotRates, reports.PlotSceneSize},
		Noise:            noise,
		TwoRobotFamilies: twoRobots,
	}
}

// WarmUp runs an agent's calibration, so that a Go benchmark's timed loop
// does not.
func (t *Track) WarmUp(ctx context.Context, agent string, opts bench.Options) error {
	info, ok := agents.Lookup(agent)
	if !ok {
		return nil
	}
	a, err := info.New(agents.Config{Model: opts.Model, Calibration: t.calibration(opts.Seed, opts.Concurrency)})
	if err != nil {
		return nil // a reference agent needs no model; a workflow's error shows in its loop
	}
	if c, ok := a.(agents.Calibrated); ok {
		return c.Calibrate(ctx)
	}
	return nil
}
