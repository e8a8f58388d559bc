package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench/household"
)

// trainRouterCmd trains dyref's router: it plays training-split games
// under every subset of reflection tools, labels each failed game with
// the subset that paid best (dyref.PseudoLabel), fits the MLP and writes
// its weights. The same flags give the same bytes.
func trainRouterCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench train-router", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := dyref.DefaultTrainOptions()
	modelSpec := fs.String("model", models.Default, "language model `spec` that plays the games and reflects: "+models.Forms)
	games := fs.Int("games", household.DefaultRouterGames, "training-split `games` to play (the six task types in turn)")
	alpha := fs.Float64("alpha", household.DefaultRouterAlpha, "success given up per 1,000 reflection tokens in the pseudo-labels")
	seed := fs.Uint64("seed", def.Seed, "`seed` of the MLP's initial weights")
	hidden := fs.Int("hidden", def.Hidden, "hidden `units` of the MLP")
	epochs := fs.Int("epochs", def.Epochs, "full-batch training `steps`")
	lr := fs.Float64("lr", def.LearningRate, "learning `rate` (Adam)")
	ambiguity := fs.Bool("ambiguity", false, "train over the four tools, this project's ambiguity tool beside the paper's three: dyref-ambiguity's router (agents/dyref/router-ambiguity.json)")
	conc := fs.Int("concurrency", runtime.GOMAXPROCS(0), "games played at once; the weights do not depend on it")
	grammar := fs.String("grammar", "v0.3", "the wording of the texts, ALFWorld's v0.3 or v0.4")
	out := fs.String("out", "", "write the weights to this `file` (default: stdout); run --router FILE uses them")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: ambibench train-router [flags]

Trains dyref's routing policy for a model. Each training-split game is
played once per subset of the paper's three reflection tools (key_rules,
experience, lesson; with --ambiguity, of those and this project's
ambiguity tool): a first trial, that reflection, a second trial. A game
that fails its first trial is labelled with the subset that best trades
the second trial's success against its reflection tokens; an MLP from
the failed trial's complexity factors to that label is fitted and its
weights written as JSON. The weights shipped in agents/dyref/router.json
(dyref's) are this command's output with its defaults, and those in
agents/dyref/router-ambiguity.json (dyref-ambiguity's) its output with
--ambiguity.

Flags:
`)
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args) }); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("train-router: unexpected arguments %q", fs.Args())
	}
	// An infinite alpha passed the old test, and the router file then
	// held "+Inf", which is not JSON; past MaxAlpha run --router refuses
	// the file.
	if !(*alpha >= 0 && *alpha <= dyref.MaxAlpha) {
		return fmt.Errorf("train-router: --alpha %v: want a number from 0 to %g", *alpha, dyref.MaxAlpha)
	}
	if *games < 1 {
		return fmt.Errorf("train-router: --games %d: must be at least 1", *games)
	}
	if *conc < 1 {
		return fmt.Errorf("train-router: --concurrency %d: must be at least 1", *conc)
	}
	if *grammar != "v0.3" && *grammar != "v0.4" {
		return fmt.Errorf("train-router: --grammar %q: want v0.3 or v0.4", *grammar)
	}
	m, err := models.OpenWith(*modelSpec, os.Getenv, models.Options{})
	if err != nil {
		return fmt.Errorf("train-router: --model: %w", err)
	}
	opts := dyref.TrainOptions{Hidden: *hidden, Epochs: *epochs, LearningRate: *lr, L2: def.L2, Seed: *seed, Tools: def.Tools}
	if *ambiguity {
		opts.Tools = len(dyref.AllTools)
	}
	r, d, err := household.TrainRouter(context.Background(), household.RouterTraining{Model: m, Games: *games, Alpha: *alpha,
		Train: opts, Concurrency: *conc, Grammar: *grammar})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := r.WriteTo(&buf); err != nil {
		return fmt.Errorf("train-router: %w", err)
	}
	// What is written must be what run --router reads: weights that
	// training drove past the reader's bounds (a huge --lr) are refused
	// here, not after the file is in use.
	if _, err := dyref.ReadFactorRouter(bytes.NewReader(buf.Bytes()), "the trained router"); err != nil {
		return fmt.Errorf("train-router: run --router would refuse the weights trained (a smaller --lr, or more --games?): %w", err)
	}
	report := stdout
	if *out == "" {
		report = stderr
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("train-router: %w", err)
	}
	writeRouterSummary(report, d, r)
	if *out != "" {
		fmt.Fprintf(report, "wrote %s\n", *out)
	}
	return nil
}

// writeRouterSummary says what the games gave and how well the router
// fits its labels.
func writeRouterSummary(w io.Writer, d household.RouterData, r *dyref.Router) {
	fmt.Fprintf(w, "games %d, failed at trial 1 %d, corrected by no subset %d, examples %d, training accuracy %.3f, held-out accuracy %.3f\n",
		d.Games, d.FailedFirst, d.NoneHelped, len(d.Examples), r.Accuracy(d.Examples), d.Holdout)
	fmt.Fprintf(w, "held out: the routed subset corrected %.3f of the games, at %.0f reflection tokens a game\n", d.HoldoutSuccess, d.HoldoutTokens)
	fmt.Fprintln(w, "| subset | games corrected | reflection tokens a game | labels | corrected, held out |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	for s := range r.Tools() + 1 {
		fmt.Fprintf(w, "| %s | %d | %.0f | %d | %.3f |\n", dyref.Subset(s), d.Corrected[s], float64(d.Tokens[s])/float64(max(d.FailedFirst, 1)), d.Labels[s], d.ConstantSuccess[s])
	}
}
