// Command ambibench runs the ambibench suite: it plays agents on perturbed
// episodes, records every episode, and tabulates ADA and SR.
//
// Usage:
//
//	ambibench run --track tabletop --agents oracle,rules,random --episodes 100 --out DIR
//	ambibench list
//
// Run "ambibench help" or "ambibench run --help" for the flags. The command
// itself lives in package cli, so that tests drive it as a user would.
package main

import (
	"os"

	"github.com/ambibench/ambibench/cmd/ambibench/cli"
)

func main() {
	os.Exit(cli.Main(os.Stdout, os.Stderr, os.Args[1:]))
}
