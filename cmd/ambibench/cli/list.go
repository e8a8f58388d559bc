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
	if err := tw.Flush(); err != nil {
		return err
	}
	var seeing []string
	for _, a := range agents.All() {
		if a.ShowsImages {
			seeing = append(seeing, a.Name)
		}
	}
	if len(seeing) > 0 {
		_, err := fmt.Fprintf(stdout, "\nUnder --perception image (tabletop) these show the model the robot's camera image:\n  %s\nEvery other agent perceives as with --perception detector: the workflows read the\ndetector's list, and oracle, rules and random, which call no model, the table itself.\n", strings.Join(seeing, ", "))
		return err
	}
	return nil
}
