package household

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// Track is the household track: the ALFWorld-like text world, whose
// families are ALFWorld's task types and whose episodes are the
// evaluation split's games, played over several trials by the agents that
// reflect between them.
type Track struct {
	// Trials is how many times an episode may play its game
	// (DefaultTrials if zero); agents that do not reflect play once.
	Trials int
	// Grammar and Feedback select the texts (see sim/textworld.Options).
	Grammar, Feedback string
	// Router is dyref's routing policy; nil means the shipped one.
	Router *dyref.Router
	// KeepArrival passes "You arrive at loc N. " on to the workflows on
	// the ReAct player, which cut it by default as the Reflexion
	// authors' loop does (agents/household, arrival.go).
	KeepArrival bool
	// Hints gives the workflows on the ReAct player ambibench's own rules
	// of the house in their prompts; without it they read what the
	// Reflexion authors' prompt gives (agents/household, options.go).
	Hints bool
	// PlayOnRepeat lets react and react-text play on after the same call
	// twice in a row, which ends the trial by default as in the authors'
	// loop.
	PlayOnRepeat bool
	// DataDir is a game directory (see ExportGames) whose games the grid
	// plays instead of building them; empty for the built-in split.
	DataDir string

	data *gameSet // read from DataDir by Prepare

	routerFile string
}

// New returns the household track with its default settings.
func New() *Track { return &Track{Trials: DefaultTrials, Grammar: "v0.3"} }

func (*Track) Name() string { return Name }
func (*Track) Summary() string {
	return "ALFWorld-like text household; several trials per game (--track household)"
}

func (t *Track) Flags(fs *flag.FlagSet) {
	fs.IntVar(&t.Trials, "trials", DefaultTrials, "household: trials per game for agents that reflect between trials")
	fs.StringVar(&t.Grammar, "grammar", "v0.3", "household: the wording of the texts, ALFWorld's v0.3 or v0.4")
	fs.StringVar(&t.Feedback, "feedback", "", "household: explain to say why a command fails instead of \"Nothing happens.\"")
	fs.BoolVar(&t.KeepArrival, "keep-arrival", false, "household: let the ReAct-based workflows read \"You arrive at loc N. \" as the world writes it, instead of cutting it as the Reflexion authors' loop does")
	fs.BoolVar(&t.Hints, "hints", false, "household: give the ReAct-based workflows ambibench's rules of the house in their prompts (which appliance heats, cools or cleans, open a closed receptacle first, one object at a time, not every receptacle takes every object, the same command twice never helps); by default they read what the Reflexion authors' prompt gives: an instruction, two solved games of the task type, and the task")
	fs.BoolVar(&t.PlayOnRepeat, "play-on-repeat", false, "household: let react and react-text play on after sending the same call twice in a row, instead of ending the trial there as the Reflexion authors' loop does (the agents that reflect always end it)")
	fs.StringVar(&t.DataDir, "data", "", "household: play the game files in `dir` (DIR/PERTURBATION/TYPE/NN.json, as ambibench household export writes them) instead of building the games; their grammar must be --grammar's")
	fs.StringVar(&t.routerFile, "router", "", "household: the routing policy of dyref (a router over the paper's three tools) or of dyref-ambiguity (over four), a weights `file` written by ambibench train-router (default: the shipped ones, trained for sim); records name it by a hash of its weights (model \"M; router ID\")")
}

func (t *Track) Prepare(io.Writer) error {
	if t.Trials < 1 {
		return fmt.Errorf("--trials %d: must be at least 1", t.Trials)
	}
	if t.Grammar != "v0.3" && t.Grammar != "v0.4" {
		return fmt.Errorf("--grammar %q: want v0.3 or v0.4", t.Grammar)
	}
	if t.Feedback != "" && t.Feedback != "explain" {
		return fmt.Errorf("--feedback %q: want explain or nothing", t.Feedback)
	}
	if t.routerFile != "" {
		r, err := ReadRouter(t.routerFile)
		if err != nil {
			return fmt.Errorf("--router: %w", err)
		}
		t.Router = r
	}
	return t.loadData()
}

// ReadRouter reads a router file written by train-router.
func ReadRouter(path string) (*dyref.Router, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dyref.ReadFactorRouter(f, path)
}

func (t *Track) Cells(families, perturbations []string) ([]bench.Cell, error) {
	if t.data != nil {
		return t.data.filter(families, perturbations)
	}
	return HouseholdCells(families, perturbations)
}

func (t *Track) CellEpisodes(c bench.Cell) (int, bool) {
	if t.data != nil {
		return len(t.data.games[c]), true
	}
	return alfworld.EvalCount(c.Family), true
}
func (*Track) EpisodeUnit() string { return "games" }

func (t *Track) Settings() (map[string]string, error) {
	trials := t.Trials
	if trials <= 0 {
		trials = DefaultTrials
	}
	// The build's own files: they read, or every dyref test fails. The
	// run's router replaces the one of its tools.
	r, _ := dyref.Default()
	ra, _ := dyref.DefaultAmbiguity()
	if t.Router != nil && t.Router.Tools() == dyref.FirstTools(len(dyref.AllTools)) {
		ra = t.Router
	} else if t.Router != nil {
		r = t.Router
	}
	s := map[string]string{
		"trials":           strconv.Itoa(trials),
		"grammar":          t.Grammar,
		"feedback":         t.Feedback,
		"router":           "unreadable",
		"router_ambiguity": "unreadable",
	}
	if r != nil {
		s["router"] = r.ID() // the weights, however the file is named
	}
	if ra != nil {
		s["router_ambiguity"] = ra.ID()
	}
	if t.KeepArrival {
		// Only when set, so that runs from before the flag still match.
		s["arrival"] = "kept"
	}
	// Like the arrival, each only when set.
	if t.Hints {
		s["hints"] = "house rules"
	}
	if t.PlayOnRepeat {
		s["repeat"] = "play on"
	}
	if err := t.dataSettings(s); err != nil {
		return nil, err
	}
	return s, nil
}

// ModelName names the model of dyref's records with the run's own router
// beside it.
func (t *Track) ModelName(agent string, opts bench.Options) (string, bool) {
	info, ok := agents.Lookup(agent)
	if !ok || !info.UsesRouter || t.Router == nil || opts.Model == nil {
		return "", false
	}
	return agents.RouterModelName(opts.Model, t.Router), true
}

func (*Track) List(w io.Writer) {
	fmt.Fprintln(w, "\nTASK TYPES (household; episodes are the 134-game evaluation split)")
	for _, t := range alfworld.Types() {
		fmt.Fprintf(w, "  %s\t%d evaluation games\n", t, alfworld.EvalCount(t))
	}
	fmt.Fprintln(w, "\nPERTURBATIONS (household)")
	for _, p := range perturb.ForHousehold() {
		fmt.Fprintf(w, "  %s\t%s\n", p.Name(), perturb.HouseholdDescription(p))
	}
}

// Table's columns default to the household's perturbations.
func (*Track) Table(w io.Writer, recs []results.Record, spec bench.TableSpec) error {
	if len(spec.Perturbations) == 0 {
		spec.Perturbations = perturb.HouseholdNames()
	}
	return bench.RateTable(w, recs, spec)
}

// Tally is Table a record at a time (bench.Tallier), with Table's columns.
func (*Track) Tally(spec bench.TableSpec) bench.Tally {
	if len(spec.Perturbations) == 0 {
		spec.Perturbations = perturb.HouseholdNames()
	}
	return bench.NewRateTally(spec)
}

// DefaultBaseline is the agent the household's workflows are compared
// with in a report: the one that reflects after every failure.
const DefaultBaseline = "reflexion"

// dyrefCut is DyRef's published cut of the household results (issue 16;
// ambibench report --cut dyref): the clear games of the 134-game
// evaluation split less the pick-two type, as the DyRef paper reports
// ALFWorld, with its four figures at trial 4 (docs/metrics.md).
var dyrefCut = reports.TrialCut{
	Name:  "dyref",
	Title: "DyRef's cut",
	Games: "As the DyRef paper reports ALFWorld: the clear games (perturbation none) of the evaluation split less the pick-two type (" + alfworld.TypePickTwoObjAndPlace + ").",
	Trial: 4,
	Keep: func(r results.Record) bool {
		return r.Family != alfworld.TypePickTwoObjAndPlace && r.Perturbation == "none"
	},
}

// Report gives the household's sections (the rates, cost, success by
// trial, reflection, DyRef's cut when asked for, repeats), its plot,
// Reflexion as the baseline of the paired comparisons, and its words.
func (*Track) Report() reports.Track {
	return reports.Track{
		Sections:       []reports.Section{reports.SectionRates, reports.SectionCost, reports.SectionTrials, reports.SectionReflections, dyrefCut.Section(), reports.SectionRepeats},
		Baseline:       DefaultBaseline,
		SuccessByTrial: true,
		Plots:          []reports.Plot{reports.PlotTrials},
		PairedNote:     "On the household track success is SR@k, k the most trials any game played (the trials allowed, when some game used them all), as in Success by trial; by default the household agents are compared with " + DefaultBaseline + ".",
		Words: reports.Words{
			Families: "task types",
			ADA:      "on a clear game (none), the goal reached without asking; on an ambiguous one, a question to the user; under partial_observability, where nothing is missing and the object is to be found by exploring, success.",
			SR:       "some trial reached the goal, and no question was rejected.",
		},
	}
}
