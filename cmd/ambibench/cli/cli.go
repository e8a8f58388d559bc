// Package cli is the ambibench command: [Run] parses the arguments and runs
// a subcommand, writing to the given stdout and stderr, so the command is
// tested exactly as it runs.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// errUsage is returned once the usage message has been printed.
var errUsage = errors.New("usage")

const usage = `ambibench runs LLM-planner agents on perturbed robot tasks and scores them.

Usage:
  ambibench run [flags]    run agents over a grid of task families x perturbations
  ambibench merge --out OUT DIR...  join the directories of run --shard i/n into one run
  ambibench report DIR     write a Markdown report of a run's records (tables, costs, paired tests)
  ambibench semmap export DIR  write the built-in semantic-map dataset in the public layout
  ambibench household export DIR  write the household grid's games as game files (JSON), one a game
  ambibench household play FILE   play one game file in the terminal, one command a line from stdin
  ambibench prompts export DIR  write every workflow's prompt templates, to edit and pass to run --prompts DIR
  ambibench show DIR KEY   print one recorded episode: instruction, outcome, every model call
  ambibench render --out DIR  write each robot's camera image of a tabletop grid's episodes
  ambibench compare BASE NEW  compare two runs on the same episodes; exit 1 on a significant regression
  ambibench view DIR       write a run as a static site to browse, DIR/view/index.html (view BASE NEW: compared)
  ambibench cassette verify|compact|merge  check, compact (zstd with a trained dictionary) and merge cassette stores
  ambibench list           list tracks, task families, perturbations and agents
  ambibench serve-sim      serve the simulated model as an OpenAI-compatible endpoint
  ambibench train-router   train dyref's routing policy for a model (household track)
  ambibench help           show this help
  ambibench --version      print the suite and module versions

Run "ambibench COMMAND --help" for a command's flags.
Models are picked with --model (or AMBIBENCH_MODEL for go test -bench):
sim, sim:perfect, sim:weak, gemini:MODEL, openai:MODEL, anthropic:MODEL,
record:DIR=SPEC, replay:DIR[=MODEL].
`

const listUsage = `Usage: ambibench list

Lists the tracks; the tabletop's task families and perturbations; the
household's task types and perturbations, each with what it does to a
game; the semmap track's query types and input modes; and the agents,
grouped by the tracks they play. It takes no flags.
`

// command is a subcommand: its name and what runs it.
type command struct {
	name string
	run  func(stdout, stderr io.Writer, args []string) error
}

// commands are the subcommands that parse flags of their own; list and
// help are Run's.
var commands = []command{
	{"run", runCmd},
	{"merge", mergeCmd},
	{"report", reportCmd},
	{"semmap", semmapCmd},
	{"household", func(stdout, stderr io.Writer, args []string) error {
		return householdCmd(os.Stdin, stdout, stderr, args)
	}},
	{"prompts", promptsCmd},
	{"show", showCmd},
	{"render", renderCmd},
	{"compare", compareCmd},
	{"view", viewCmd},
	{"cassette", cassetteCmd},
	{"serve-sim", serveSimCmd},
	{"train-router", trainRouterCmd},
}

func commandNamed(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// isHelp reports whether an argument asks for help, as the flag package
// reads -h, -help and --help, or as "help" does at the top level.
// subcommand reads the subcommand word of a command that has some
// ("ambibench semmap export …"): none prints the usage and is errUsage, a
// help word prints it to stdout, and a word not in have is refused,
// naming them. done is true when the command has nothing left to do.
func subcommand(fs *flag.FlagSet, stdout io.Writer, cmd string, args []string, have ...string) (done bool, err error) {
	switch {
	case len(args) == 0:
		fs.Usage()
		return true, errUsage
	case isHelp(args[0]):
		fs.SetOutput(stdout)
		fs.Usage()
		return true, nil
	case !slices.Contains(have, args[0]):
		return true, fmt.Errorf("%s: unknown subcommand %q (have %s; see ambibench %s --help)", cmd, args[0], strings.Join(have, " and "), cmd)
	}
	return false, nil
}

func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// exitInfra is the exit status of a run that finished but lost episodes
// to infrastructure errors.
const exitInfra = 3

// exitBudget is the exit status of a run stopped by --max-tokens-total.
const exitBudget = 4

// exitError is an error with an exit status of its own.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Main runs the command and returns its exit status: 0 on success, 3 for
// a run that lost episodes to infrastructure errors, 4 for a run stopped
// by its token budget, 2 on any other error. Errors are printed to stderr.
func Main(stdout, stderr io.Writer, args []string) int {
	if err := Run(stdout, stderr, args); err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(stderr, "ambibench:", err)
		}
		var ee *exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		return 2
	}
	return 0
}

// Run runs the command with its arguments (without the program name).
func Run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	if cmd, ok := commandNamed(args[0]); ok {
		return cmd.run(stdout, stderr, args[1:])
	}
	switch args[0] {
	case "list":
		if len(args) == 2 && isHelp(args[1]) {
			fmt.Fprint(stdout, listUsage)
			return nil
		}
		if len(args) > 1 {
			return fmt.Errorf("list takes no arguments, got %q", args[1:])
		}
		return listCmd(stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	case "--version", "-version", "version":
		if len(args) > 1 {
			return fmt.Errorf("%s takes no arguments, got %q", args[0], args[1:])
		}
		return versionCmd(stdout)
	}
	fmt.Fprintf(stderr, "ambibench: unknown command %q\n\n%s", args[0], usage)
	return errUsage
}
