package cli

import (
	"fmt"
	"io"
	"slices"
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
		bench.List(tw, t)
	}
	for _, g := range agentGroups(all) {
		fmt.Fprintf(tw, "\nAGENTS (%s)\n", g.tracks)
		for _, a := range g.agents {
			fmt.Fprintf(tw, "  %s\t%s\n", a.Name, a.Description)
		}
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
		_, err := fmt.Fprintf(stdout, "\nUnder --perception image (tabletop; the default) these show the model the robot's camera image:\n  %s\nEvery other agent perceives as with --perception detector: the workflows read the\ndetector's list, and oracle, rules and random, which call no model, the table itself.\n", strings.Join(seeing, ", "))
		return err
	}
	return nil
}

// agentGroup is the agents that play the same tracks.
type agentGroup struct {
	tracks string // "tabletop", "tabletop, household, semmap", "every track"
	agents []agents.Info
}

// agentGroups groups the registered agents by the tracks they play: first
// those of several tracks (the reference agents), then those of one,
// track by track in the order of the registered tracks, then any that
// claim every track (an agent registered with agents.Register); agents
// keep the registry's order within a group.
func agentGroups(tracks []bench.Track) []agentGroup {
	rank := func(name string) int {
		for i, t := range tracks {
			if t.Name() == name {
				return i
			}
		}
		return len(tracks)
	}
	var groups []agentGroup
	key := func(a agents.Info) string {
		if a.Tracks == nil {
			return "every track"
		}
		ts := slices.Clone(a.Tracks)
		slices.SortStableFunc(ts, func(x, y string) int { return rank(x) - rank(y) })
		return strings.Join(ts, ", ")
	}
	for _, a := range agents.All() {
		k := key(a)
		i := slices.IndexFunc(groups, func(g agentGroup) bool { return g.tracks == k })
		if i < 0 {
			groups = append(groups, agentGroup{tracks: k})
			i = len(groups) - 1
		}
		groups[i].agents = append(groups[i].agents, a)
	}
	order := func(g agentGroup) (int, int) {
		a := g.agents[0]
		switch {
		case a.Tracks == nil:
			return 2, 0
		case len(a.Tracks) > 1:
			return 0, 0
		}
		return 1, rank(a.Tracks[0])
	}
	slices.SortStableFunc(groups, func(x, y agentGroup) int {
		xa, xb := order(x)
		ya, yb := order(y)
		if xa != ya {
			return xa - ya
		}
		return xb - yb
	})
	return groups
}
