package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	tsm "github.com/ambibench/ambibench/tasks/semmap"
)

// semmapCmd serves the semmap track's data: "export DIR" writes the
// built-in dataset in the public layout, so that it can be read back with
// run --track semmap --data DIR, or by other tools.
func semmapCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench semmap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", builtinSeed, "`seed` of the built-in dataset")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: ambibench semmap export [flags] DIR\n\nWrites the built-in semantic-map dataset to DIR in the public layout:\nsemantic_maps/<map>.json, queries.yaml, responses/<map>.json.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "export" {
		fs.Usage()
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			return nil
		}
		return errUsage
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("semmap export: want one DIR, got %d arguments", fs.NArg())
	}
	d := tsm.Builtin(*seed)
	if err := d.Write(fs.Arg(0)); err != nil {
		return fmt.Errorf("semmap export: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d maps, %d queries\n", fs.Arg(0), len(d.Maps), len(d.Queries))
	return nil
}
