package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/tasks"
)

// listCmd prints what the registries hold.
func listCmd(stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TRACKS")
	fmt.Fprintf(tw, "  %s\tphysics table of blocks and bowls, one or two robots\n", bench.Track)
	fmt.Fprintln(tw, "\nTASK FAMILIES")
	for _, f := range tasks.All() {
		fmt.Fprintf(tw, "  %s\t%s\n", f.Name(), f.Description())
	}
	fmt.Fprintln(tw, "\nPERTURBATIONS")
	for _, p := range perturb.All() {
		fmt.Fprintf(tw, "  %s\t%s\n", p.Name(), p.Description())
	}
	fmt.Fprintln(tw, "\nAGENTS")
	for _, a := range agents.All() {
		fmt.Fprintf(tw, "  %s\t%s\n", a.Name, a.Description)
	}
	return tw.Flush()
}
