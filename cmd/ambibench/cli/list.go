package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/tasks"
	hh "github.com/ambibench/ambibench/tasks/household"
)

// listCmd prints what the registries hold.
func listCmd(stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TRACKS")
	fmt.Fprintf(tw, "  %s\tphysics table of blocks and bowls, one or two robots\n", bench.Track)
	fmt.Fprintf(tw, "  %s\tALFWorld-like text household; several trials per game (--track household)\n", bench.HouseholdTrack)
	fmt.Fprintf(tw, "  %s\tobject-level semantic maps and queries, Top-k (--track semmap [--data DIR])\n", bench.SemmapTrack)
	fmt.Fprintln(tw, "\nTASK FAMILIES (tabletop)")
	for _, f := range tasks.All() {
		fmt.Fprintf(tw, "  %s\t%s\n", f.Name(), f.Description())
	}
	fmt.Fprintln(tw, "\nPERTURBATIONS (tabletop)")
	for _, p := range perturb.All() {
		fmt.Fprintf(tw, "  %s\t%s\n", p.Name(), p.Description())
	}
	fmt.Fprintln(tw, "\nTASK TYPES (household; episodes are the 134-game evaluation split)")
	for _, t := range hh.Types() {
		fmt.Fprintf(tw, "  %s\t%d evaluation games\n", t, hh.EvalCount(t))
	}
	fmt.Fprintln(tw, "\nPERTURBATIONS (household)")
	for _, p := range hh.Perturbations() {
		fmt.Fprintf(tw, "  %s\n", p)
	}
	fmt.Fprintln(tw, "\nAGENTS")
	for _, a := range agents.All() {
		tracks := "all tracks"
		if a.Tracks != nil {
			tracks = strings.Join(a.Tracks, ", ")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", a.Name, tracks, a.Description)
	}
	return tw.Flush()
}
