package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	_ "github.com/ambibench/ambibench/bench/tracks"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
)

const runUsage = `Usage: ambibench run [flags]

Runs every agent on every (task family, perturbation) cell of a track
(tabletop, household or semmap) and prints the track's rates (ADA and SR;
semmap: Top-k, by input mode) with episode counts and 95% Wilson intervals.

With --out DIR the run is kept: DIR/records.jsonl (one record per episode),
DIR/run.json (the settings, which must not change, and the grid, which may
grow) and DIR/summary.md. Running again on DIR resumes: it plays only the
episodes not yet recorded, and again those that ended in an infrastructure
error. A setting that differs from run.json (seed, step limit, trials,
grammar, feedback, dataset, router, reply size cap, the prompt templates
of --prompts, suite version) is refused and named.

With --shard i/n the run plays only shard i of n of the grid, and its
--out directory records which; "ambibench merge --out OUT DIR..." joins the n
shards' directories into one run, as if it had not been sharded.

Exit status: 0 when every episode was scored (agent errors count as the
agent's failures); 3 when some episodes ended in infrastructure errors
(the provider, the network or a cassette failed; they are not scored, and
running the same command again runs just those); 4 when --max-tokens-total
stopped the run (the same command continues it); 2 on any other error.

Memory: while it runs, the garbage collector lets the heap grow to 160 MiB
before collecting, and above that to twice the heap last found live (as
GOGC=100 does); the default, collecting each time the heap doubles, spent
a tenth of a simulated run's CPU collecting a heap of a few megabytes.
Set GOGC or GOMEMLIMIT in the environment and the collector is left as
the Go runtime sets it from them.

Flags:
`

// runCmd runs a grid and writes DIR/records.jsonl and DIR/summary.md.
func runCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	track := fs.String("track", tabletop.Name, trackUsage())
	agentList := fs.String("agents", "oracle,rules,random", "comma-separated `agents` to run (see ambibench list), or all")
	taskList := fs.String("tasks", "", "comma-separated task `families` (default all)")
	perturbList := fs.String("perturbations", "", "tabletop and household: comma-separated `perturbations` (default all)")
	episodes := fs.Int("episodes", 0, fmt.Sprintf("episodes per cell and agent; on household and semmap at most the games or dataset pairs a cell holds (default: tabletop %d, household and semmap all of them)", bench.DefaultEpisodes(tabletop.New())))
	seed := fs.Uint64("seed", 1, "suite `seed`; with the cell and the episode index it fixes every episode")
	repeats := fs.Int("repeats", 1, "plays of each episode, each with independent sampling streams (the model's draws and the agent's seed), for models sampled at a temperature above zero; records carry the repeat, reports show the mean and spread between repeats")
	conc := fs.Int("concurrency", runtime.GOMAXPROCS(0), "episodes run at once; the records do not depend on it")
	out := fs.String("out", "", "output `dir` for records.jsonl and summary.md; an existing run there is resumed (default: print only)")
	byTask := fs.Bool("by-task", false, "print one row per agent and task family instead of pooling families")
	modelSpec := fs.String("model", models.Default, "language model `spec` for the workflow agents (such as direct): "+models.Forms)
	rpm := fs.Int("rpm", 0, "cap model calls per minute (0: no cap)")
	tpm := fs.Int("tpm", 0, "cap model tokens per minute (0: no cap)")
	inflight := fs.Int("max-inflight", 0, "cap model calls waiting at once (0: no cap)")
	retries := fs.Int("retries", middleware.DefaultMaxAttempts, "`attempts` at one call to a live model, the first included, before its episode is an infrastructure error (1: no retries)")
	maxRetryAfter := fs.Duration("max-retry-after", middleware.DefaultMaxRetryAfter, "the longest Retry-After a server may ask for and be waited for; a longer one ends the call's retries")
	callTimeout := fs.Duration("call-timeout", models.CallTimeout, "deadline of each attempt at a call to a live model")
	maxReply := fs.Int64("max-reply-bytes", llm.DefaultMaxReplyBytes, "the largest reply body read from a live model; a larger reply is the agent's failure, not a heap")
	logLevel := fs.String("log-level", "warn", "what to log on stderr: debug, info (also rate-limit waits), warn (retries and infrastructure errors) or error")
	members := fs.String("ensemble-models", "", "comma-separated model `specs` the ensemble agent samples its answers from, answer k from spec k mod n, each opened as --model is (same caps, transcript, cassettes); the chooser stays --model, and records name both (model \"members A,B; chooser M\"). Default: --model alone")
	quiet := fs.Bool("quiet", false, "print no progress on stderr while the run goes on")
	dryRun := fs.Bool("dry-run", false, "print the grid (episodes per agent and cell) and an estimate of model calls and tokens per agent, measured by playing the same grid on the simulated model, and run nothing")
	maxTokens := fs.Int64("max-tokens-total", 0, "stop the run cleanly once its model calls have spent this many input and output `tokens` (0: no cap): no episode starts after that, an episode that would make another call is not recorded, and running the same command again continues, with a budget of its own")
	fresh := fs.Bool("fresh", false, "with --out, discard the run already in the directory (records, run.json, summary, transcripts) and start afresh")
	transcripts := fs.Bool("transcripts", false, "with --out, write every model call to DIR/transcripts.jsonl (request, reply, usage, latency, episode)")
	promptsDir := fs.String("prompts", "", "a `dir` of prompt templates to use in place of the built-in ones, as ambibench prompts export writes them (any subset; each checked before the run, and the hash of each that differs recorded in run.json)")
	shardFlag := fs.String("shard", "", "run only shard `i/n` of the grid (1 ≤ i ≤ n): job k of the grid, in grid order from 0, is shard k mod n + 1; join the shards' --out directories with ambibench merge")
	owners := bindTrackFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), runUsage)
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args) }); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("run: unexpected arguments %q", fs.Args())
	}
	defer holdHeapFloor(os.Getenv)()
	t, ok := owners.tracks[*track]
	if !ok {
		return fmt.Errorf("run: --track %q: unknown track (have %s)", *track, strings.Join(bench.TrackNames(), ", "))
	}
	if err := owners.check(fs, *track); err != nil {
		return err
	}
	if err := checkListFlags(fs); err != nil {
		return err
	}
	if err := checkMembersFlag(fs, *members); err != nil {
		return err
	}
	if err := t.Prepare(stderr); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if *episodes < 0 || *episodes == 0 && flagGiven(fs, "episodes") {
		return fmt.Errorf("run: --episodes %d: must be at least 1 (leave it out for the track's default)", *episodes)
	}
	if *repeats < 1 {
		return fmt.Errorf("run: --repeats %d: must be at least 1", *repeats)
	}
	if *conc < 1 {
		return fmt.Errorf("run: --concurrency %d: must be at least 1", *conc)
	}
	var shard bench.Shard
	if *shardFlag != "" {
		s, err := parseShardFlag(*shardFlag)
		if err != nil {
			return err
		}
		shard = s
	}
	opts := bench.Options{
		Track:         t,
		Seed:          *seed,
		Families:      splitList(*taskList),
		Perturbations: splitList(*perturbList),
		Agents:        agentsFlag(*agentList, *track),
		Episodes:      episodesFlag(*episodes, t),
		Repeats:       *repeats,
		Concurrency:   *conc,
	}
	// The whole grid, for run.json, and this run's part of it: made job
	// by job as they are asked for, never held.
	grid, err := bench.NewGrid(opts)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if err := checkNamedCells(opts, grid.Len()); err != nil {
		return err
	}
	if err := checkSceneSizes(opts); err != nil {
		return err
	}
	// Before any model is opened: an agent that shows images and a model
	// that takes none.
	if err := bench.CheckImages(t, opts.Agents, append([]string{*modelSpec}, splitModelSpecs(*members)...)); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	opts.Shard = shard
	jobs, err := bench.NewGrid(opts)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if jobs.Len() == 0 {
		// Not an error: an Indexed Job of more shards than the grid has
		// jobs still runs every index, and merge wants each directory.
		// But "No results." alone read as a run that lost its records.
		fmt.Fprintf(stderr, "ambibench: --shard %s: this shard holds none of the grid's %d %s (job k is shard k mod %d + 1); its directory is written for merge\n",
			shard, grid.Len(), plural(grid.Len(), "job", "jobs"), shard.Count)
	}
	if len(splitModelSpecs(*members)) > 0 && !membersPlayed(jobs.Agents()) {
		return fmt.Errorf("run: --ensemble-models: no agent of this run samples from members (those that do: %s)", strings.Join(agentsWithMembers(), ", "))
	}
	if *rpm < 0 || *tpm < 0 || *inflight < 0 {
		return fmt.Errorf("run: --rpm, --tpm and --max-inflight must not be negative")
	}
	if *retries < 1 {
		return fmt.Errorf("run: --retries %d: must be at least 1 (the first attempt)", *retries)
	}
	if *maxRetryAfter < 0 || *callTimeout <= 0 || *maxReply <= 0 {
		return fmt.Errorf("run: --max-retry-after must not be negative, --call-timeout and --max-reply-bytes must be positive")
	}
	if flagGiven(fs, "prompts") {
		if opts.Prompts, err = loadPrompts(stderr, *promptsDir, t.Name(), needsModel(jobs.Agents())); err != nil {
			return err
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("run: --log-level %q: want debug, info, warn or error", *logLevel)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	if *dryRun {
		return dryRunGrid(stdout, jobs, opts)
	}
	if *maxTokens < 0 {
		return fmt.Errorf("run: --max-tokens-total %d: must not be negative", *maxTokens)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var budget *tokenBudget // with --max-tokens-total
	var dir *runDir
	specs := []string{*modelSpec} // the run's models: its model and its team's members
	if *out != "" {
		settings, err := bench.Settings(opts)
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		// A reply over the cap is the agent's failure, so the cap moves
		// scores of a live model.
		settings["max_reply_bytes"] = strconv.FormatInt(*maxReply, 10)
		specs = append(specs, splitModelSpecs(*members)...)
		var part *results.RunShard
		if !shard.IsZero() {
			part = &results.RunShard{Index: shard.Index, Count: shard.Count, Order: grid.Order()}
		}
		if dir, err = openRunDir(*out, settings, gridOf(grid, specs...), part, *fresh); err != nil {
			return fmt.Errorf("run: %w", promptsHint(err))
		}
		defer dir.Close()
	} else if *fresh {
		return fmt.Errorf("run: --fresh needs --out")
	}
	var sink *transcriptSink // opened once the records kept are known
	if needsModel(jobs.Agents()) {
		mopts := models.Options{RequestsPerMinute: *rpm, TokensPerMinute: *tpm, MaxInFlight: *inflight,
			MaxAttempts: *retries, MaxRetryAfter: *maxRetryAfter, CallTimeout: *callTimeout, MaxReplyBytes: *maxReply, Logger: logger}
		if *transcripts {
			if *out == "" {
				return fmt.Errorf("run: --transcripts needs --out")
			}
			sink = &transcriptSink{}
			defer sink.Close()
			mopts.Transcript, mopts.TranscriptImages = sink, *out
		}
		m, ms, err := openModels(*modelSpec, *members, os.Getenv, mopts)
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		opts.Model, opts.Members = m, ms
		if *maxTokens > 0 {
			budget = &tokenBudget{limit: *maxTokens}
			opts.Model = budget.wrap(opts.Model)
			for i := range opts.Members {
				opts.Members[i] = budget.wrap(opts.Members[i])
			}
		}
	} else if err := checkUnusedModel(fs, stderr, *modelSpec); err != nil {
		return err
	}
	episodesRun, cut := episodesLine(opts)
	if opts.Repeats > 1 {
		episodesRun += fmt.Sprintf(", each played %d times (--repeats)", opts.Repeats)
	}
	if cut {
		fmt.Fprintf(stderr, "ambibench: note: %s\n", episodesRun)
	}
	// The summary adds up each record as it is written, the earlier
	// runs' first, as openRecords reads them: the run holds none of them.
	tally := newRunTally(opts)
	var w *results.Writer
	var done func(int) bool // the jobs earlier runs recorded, by position
	if dir != nil {
		if err := dir.openRecords(jobs, opts, tally.add); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		if sink != nil {
			if err := dir.checkTranscript(); err != nil {
				return fmt.Errorf("run: %w", err)
			}
		}
		// Everything given has been read and found good: only now does
		// the directory change.
		if err := dir.commit(sink); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		w = dir.w
		path := filepath.Join(*out, recordsFileName)
		if dir.prior > 0 || dir.dropped > 0 {
			fmt.Fprintf(stderr, "ambibench: resuming: %d records already in %s", dir.prior, path)
			if dir.dropped > 0 {
				fmt.Fprintf(stderr, "; %d episodes that ended in infrastructure errors run again", dir.dropped)
			}
			fmt.Fprintln(stderr)
			done = dir.done.has
		}
	}
	began := time.Now()
	var prog *progress
	if !*quiet {
		prog = newProgressOf(stderr, pending(jobs, done))
	}
	opts.OnRecord = func(j bench.Job, r results.Record) {
		if r.Outcome == results.OutcomeInfraError {
			logger.Warn("infrastructure error; the episode is not scored", "episode", r.Key(), "kind", r.ErrorKind, "error", r.Error)
		}
		if prog != nil {
			prog.record(j, r)
		}
		tally.add(&r)
	}
	added, err := bench.Stream(ctx, opts, w, done)
	if dir != nil {
		if oerr := dir.putInGridOrder(added); oerr != nil {
			err = errors.Join(err, oerr)
		}
	}
	if prog != nil {
		prog.end()
	}
	stopped := errors.Is(err, bench.ErrStopped)
	if err != nil && !stopped {
		tally.out.wall = time.Since(began)
		fmt.Fprintln(stderr, "ambibench:", tally.out)
		return fmt.Errorf("run: %w (records written so far are kept; run again to resume)", err)
	}
	wall := time.Since(began)

	var table strings.Builder
	if err := tally.table(&table, *byTask); err != nil {
		return err
	}
	fmt.Fprint(stdout, table.String())
	if *out != "" {
		var sum strings.Builder
		fmt.Fprintf(&sum, "# ambibench %s summary\n\n", *track)
		fmt.Fprintf(&sum, "Suite version %d. Seed %d, %s%s.", bench.SuiteVersion, opts.Seed, episodesRun, bench.SummaryNote(t))
		if others := otherModels(dir, specs); len(others) > 0 && needsModel(jobs.Agents()) {
			// Else nothing says whose this summary is.
			fmt.Fprintf(&sum, " "+modelOfSummary+"; the directory holds records of %s too, which ambibench report keeps apart.", *modelSpec, strings.Join(others, ", "))
		}
		sum.WriteString("\n\n")
		sum.WriteString(promptsNote(opts.Prompts, t.Name()))
		tables, err := tally.summaryTables(opts)
		if err != nil {
			return err
		}
		sum.WriteString(tables)
		sum.WriteString(bench.SummaryTail(t))
		if err := os.WriteFile(filepath.Join(*out, summaryFileName), []byte(sum.String()), 0o644); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	end := tally.out
	end.wall = wall
	fmt.Fprintln(stderr, "ambibench:", end)
	if stopped {
		return &exitError{code: exitBudget, err: fmt.Errorf("stopped: this run's calls spent %d tokens, its --max-tokens-total of %d; %d of %d episodes are recorded (the calls of the episodes it stopped are not in them), and running the same command again continues with a budget of its own",
			budget.spent.Load(), *maxTokens, end.recorded(), jobs.Len())}
	}
	if end.infra > 0 {
		again := "fix the cause and run the same command again to run just those"
		if *out == "" {
			again = "fix the cause and run again (with --out DIR a rerun plays just those)"
		}
		return &exitError{code: exitInfra, err: fmt.Errorf("%d %s ended in infrastructure errors and %s not scored; %s",
			end.infra, plural(end.infra, "episode", "episodes"), plural(end.infra, "is", "are"), again)}
	}
	return nil
}

// outcomes sums up a run for its last line.
type outcomes struct {
	scored, agent, infra int
	wall                 time.Duration
	calls, tokens        int
}

// add counts one record.
func (o *outcomes) add(r *results.Record) {
	switch r.Outcome {
	case results.OutcomeInfraError:
		o.infra++
	case results.OutcomeAgentError:
		o.agent++
	default:
		o.scored++
	}
	o.calls += r.Calls
	o.tokens += r.InputTokens + r.OutputTokens
}

// recorded is the number of records counted.
func (o outcomes) recorded() int { return o.scored + o.agent + o.infra }

func (o outcomes) String() string {
	return fmt.Sprintf("%d %s scored (%d of them agent errors), %d infrastructure %s; %s wall; %d model calls, %d tokens",
		o.scored+o.agent, plural(o.scored+o.agent, "episode", "episodes"), o.agent, o.infra, plural(o.infra, "error", "errors"),
		o.wall.Round(time.Millisecond), o.calls, o.tokens)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// summaryFileName is the summary a run writes beside its records.
const summaryFileName = "summary.md"

// runTally adds up a run's records, one at a time as they are written,
// for its tables and its last line: what the summary needs of them,
// without holding them (a tabletop run of 130,000 episodes held 138 MB of
// records for its summary; a million, ten times that).
type runTally struct {
	tables *bench.Tables
	infra  reports.InfraTally
	out    outcomes
}

// modelOfSummary is the sentence of summary.md that names the model of
// its run, when the directory holds other models' records too: merge
// reads it back to make the merged summary of the same model.
const modelOfSummary = "The tables are of model `%s`"

// otherModels are the models of the run in dir (run.json's grid) that
// this run, with specs, does not use: none when dir is nil. A model is
// told by the name its records carry (modelKey), so that another
// spelling of this run's model (replay:DIR and replay:DIR=MODEL, say) is
// not another model.
func otherModels(dir *runDir, specs []string) []string {
	if dir == nil {
		return nil
	}
	var mine []string
	for _, s := range specs {
		key, _ := modelKey(s)
		mine = append(mine, key)
	}
	var out []string
	for _, m := range dir.run.Grid.Models {
		if key, _ := modelKey(m); !slices.Contains(mine, key) {
			out = append(out, m)
		}
	}
	return out
}

func newRunTally(opts bench.Options) *runTally {
	return &runTally{tables: bench.NewTables(opts.Track, bench.TableSpec{Agents: opts.Agents, Perturbations: opts.Perturbations})}
}

func (t *runTally) add(r *results.Record) {
	if r.Scored() {
		t.tables.Add(r)
	}
	t.infra.Add(r)
	t.out.add(r)
}

// table writes the run's table: the scored records' rates, then what the
// infrastructure failures took away.
func (t *runTally) table(w io.Writer, byFamily bool) error {
	if err := t.tables.Write(w, byFamily); err != nil {
		return err
	}
	return reports.InfraLossesMarkdown(w, t.infra.Losses())
}

// summaryTables are the tables of summary.md: the run's table, and the
// table by family where the track has one.
func (t *runTally) summaryTables(opts bench.Options) (string, error) {
	var b strings.Builder
	if err := t.table(&b, false); err != nil {
		return "", err
	}
	if bench.FamilyTable(opts.Track) {
		b.WriteString("\n## By task family\n\n")
		if err := t.table(&b, true); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// pending yields the jobs not already recorded (done, by position; nil:
// none), in grid order.
func pending(jobs *bench.Grid, done func(int) bool) iter.Seq[bench.Job] {
	return func(yield func(bench.Job) bool) {
		for k := range jobs.Len() {
			if done != nil && done(k) {
				continue
			}
			if !yield(jobs.At(k)) {
				return
			}
		}
	}
}

// needsModel reports whether any of the agents is a workflow.
func needsModel(names []string) bool {
	for _, a := range names {
		if info, ok := agents.Lookup(a); ok && info.UsesModel {
			return true
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// agentsFlag reads --agents: a list, or "all" for every agent that plays
// the track, in registration order.
func agentsFlag(s, track string) []string {
	if strings.TrimSpace(s) == "all" {
		return agents.NamesFor(track)
	}
	return splitList(s)
}

// trackUsage is the help of --track: the registered tracks.
func trackUsage() string {
	names := bench.TrackNames()
	list := strings.Join(names, ", ")
	if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	return "the `track` to run: " + list + " (ambibench list describes each, with its task families and perturbations)"
}

// parseShardFlag reads --shard i/n.
func parseShardFlag(text string) (bench.Shard, error) {
	s, err := bench.ParseShard(text)
	if err != nil {
		return bench.Shard{}, fmt.Errorf("run: --shard %w", err)
	}
	return s, nil
}
