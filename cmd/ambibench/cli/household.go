package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

const householdUsage = `Usage:
  ambibench household export [--grammar G] DIR
  ambibench household play [--grammar G] [--feedback explain] [--echo] FILE

export writes every game of the household grid (each task type under each
perturbation that applies to it, the 134-game evaluation split's games as
run builds them) to DIR, one game file a game:
DIR/<perturbation>/<type>/<index>.json. run --track household --data DIR
plays them; edit one, or write one from a published transcript's room,
and every agent plays it.

play plays one game file in the terminal, as ALFWorld's alfworld-play-tw
does: it prints the opening, then reads one command a line from standard
input (blank lines are skipped) and prints the observation after each and
a blank line, until the goal is reached, the game's step limit is, or the
input ends. Piped input works the same, so a script of commands gives a
transcript:

  printf 'go to desk 1\nuse desklamp 1\n' | ambibench household play DIR/none/look_at_obj_in_light/00.json

A game file is JSON: the task, its goal and ground truth, the rooms, the
receptacles (name, kind, room, loc: receptacles with one loc stand at one
place, openable, open), the objects (name, kind, the receptacle they are in,
hot, cold, clean, on, color, owner), the agent's place and hand (empty:
every game starts in the middle of the room), and the grammar its texts
are in. A file that does not hold together is refused with the file, the
field and what was wanted.

Flags:
`

// householdCmd serves the household's game files: export writes the
// grid's games, play plays one from stdin. stdin is a parameter, not
// os.Stdin, so that a test pipes a script in as a user would.
func householdCmd(stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench household", flag.ContinueOnError)
	fs.SetOutput(stderr)
	grammar := fs.String("grammar", "", "the wording of the texts, ALFWorld's v0.3 or v0.4 (export: default v0.3; play: the file's, and another is refused)")
	feedback := fs.String("feedback", "", "play: explain to say why a command fails instead of \"Nothing happens.\"")
	echo := fs.Bool("echo", false, "play: print each command after \"> \" before its observation, so that a piped script's transcript shows it")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), householdUsage)
		fs.PrintDefaults()
	}
	if done, err := subcommand(fs, stdout, "household", args, "export", "play"); done {
		return err
	}
	sub := args[0]
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args[1:]) }); done {
		return err
	}
	if fs.NArg() != 1 {
		what := "DIR"
		if sub == "play" {
			what = "FILE"
		}
		return fmt.Errorf("household %s: want one %s, got %d arguments", sub, what, fs.NArg())
	}
	if *grammar != "" && *grammar != textworld.GrammarV03 && *grammar != textworld.GrammarV04 {
		return fmt.Errorf("household %s: --grammar %q: want %s or %s", sub, *grammar, textworld.GrammarV03, textworld.GrammarV04)
	}
	if sub == "export" {
		if *feedback != "" || *echo {
			return fmt.Errorf("household export: --feedback and --echo are play's; export writes no texts")
		}
		g := *grammar
		if g == "" {
			g = textworld.GrammarV03
		}
		n, err := household.ExportGames(fs.Arg(0), g)
		if err != nil {
			return fmt.Errorf("household export: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %d games, grammar %s\n", fs.Arg(0), n, g)
		return nil
	}
	return playGame(stdin, stdout, fs.Arg(0), textworld.Options{Grammar: *grammar, Feedback: *feedback}, *echo)
}

// playGame plays the game file at path with the commands read from in.
// An empty opts.Grammar is the file's.
func playGame(in io.Reader, out io.Writer, path string, opts textworld.Options, echo bool) error {
	g, grammar, err := alfworld.ReadGameFile(path)
	if err != nil {
		return fmt.Errorf("household play: %w", err)
	}
	if err := g.CheckStart(path); err != nil {
		return fmt.Errorf("household play: %w", err)
	}
	if opts.Grammar == "" {
		opts.Grammar = grammar
	} else if opts.Grammar != grammar {
		return fmt.Errorf("household play: %s: grammar: the game is written in %s, --grammar is %s", path, grammar, opts.Grammar)
	}
	e, err := textworld.New(g.House, opts)
	if err != nil {
		return fmt.Errorf("household play: %s: %w", path, err)
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "%s\n\n", g.Intro(e.Reset()))
	// Flush after each observation: a player at a terminal reads it
	// before typing the next command.
	if err := w.Flush(); err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		cmd := strings.TrimSpace(sc.Text())
		if cmd == "" {
			continue
		}
		if echo {
			fmt.Fprintf(w, "> %s\n", cmd)
		}
		fmt.Fprintf(w, "%s\n\n", e.Step(cmd))
		done := g.Goal.Satisfied(e.State())
		switch {
		case done:
			fmt.Fprintf(w, "The task is done, in %d steps.\n", e.Steps())
		case e.Steps() >= g.StepLimit:
			fmt.Fprintf(w, "The step limit of %d is reached; the task is not done.\n", g.StepLimit)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if done || e.Steps() >= g.StepLimit {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("household play: reading commands: %w", err)
	}
	fmt.Fprintf(w, "The input ended after %d steps; the task is not done.\n", e.Steps())
	return w.Flush()
}
