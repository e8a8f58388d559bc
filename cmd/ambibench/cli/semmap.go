package cli

import (
	"flag"
	"fmt"
	bsemmap "github.com/ambibench/ambibench/bench/semmap"
	"io"

	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// semmapCmd serves the semmap track's data: "export DIR" writes the
// built-in dataset in the public layout, so that it can be read back with
// run --track semmap --data DIR, or by other tools.
func semmapCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench semmap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", bsemmap.BuiltinSeed, "`seed` of the built-in dataset")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: ambibench semmap export [flags] DIR\n\nWrites the built-in semantic-map dataset to DIR in the public layout:\nsemantic_maps/<map>.json, queries.yaml, responses/<map>.json.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if done, err := subcommand(fs, stdout, "semmap", args, "export"); done {
		return err
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args[1:]) }); done {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("semmap export: want one DIR, got %d arguments", fs.NArg())
	}
	d := mapqueries.Builtin(*seed)
	if err := d.Write(fs.Arg(0)); err != nil {
		return fmt.Errorf("semmap export: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d maps, %d queries\n", fs.Arg(0), len(d.Maps), len(d.Queries))
	return nil
}
