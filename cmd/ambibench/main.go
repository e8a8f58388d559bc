// Command ambibench runs the ambibench suite: it plays agents on perturbed
// episodes, records every episode, and tabulates ADA and SR.
//
// Usage:
//
//	ambibench run --track tabletop --agents oracle,rules,random --episodes 100 --out DIR
//	ambibench list
//
// Run "ambibench help" or "ambibench run --help" for the flags.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "ambibench:", err)
		}
		os.Exit(2)
	}
}

// errUsage is returned once the usage message has been printed.
var errUsage = errors.New("usage")

const usage = `ambibench runs LLM-planner agents on perturbed robot tasks and scores them.

Usage:
  ambibench run [flags]    run agents over a grid of task families x perturbations
  ambibench list           list tracks, task families, perturbations and agents
  ambibench help           show this help

Run "ambibench run --help" for the flags of run.
`

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	switch args[0] {
	case "run":
		return runCmd(stdout, stderr, args[1:])
	case "list":
		if len(args) > 1 {
			return fmt.Errorf("list takes no arguments, got %q", args[1:])
		}
		return listCmd(stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "ambibench: unknown command %q\n\n%s", args[0], usage)
	return errUsage
}
