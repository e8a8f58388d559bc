package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
)

// listCmd prints what the registries hold.
func listCmd(stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TRACKS")
	all := bench.Tracks()
	for _, t := range all {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name(), t.Summary())
	}
	for _, t := range all {
		t.List(tw)
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
