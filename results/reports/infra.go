package reports

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// InfraLoss is how many episodes of one agent (with one model) were lost to
// one kind of infrastructure failure. Such episodes are not in any rate;
// a report shows them so that a reader knows what the rates leave out.
type InfraLoss struct {
	Agent, Model, Kind string
	Episodes           int
	// Example is the error of one of them, the first in key order.
	Example string
}

// InfraLosses counts the infra_error records by agent, model and kind,
// sorted by agent, model, then kind. It depends only on recs as a set.
func InfraLosses(recs []results.Record) []InfraLoss {
	type key struct{ agent, model, kind string }
	groups := map[key]*InfraLoss{}
	firstKey := map[key]string{}
	for _, r := range recs {
		if r.Outcome != results.OutcomeInfraError {
			continue
		}
		k := key{r.Agent, r.Model, r.ErrorKind}
		g := groups[k]
		if g == nil {
			g = &InfraLoss{Agent: r.Agent, Model: r.Model, Kind: r.ErrorKind}
			groups[k] = g
		}
		g.Episodes++
		if rk := r.Key(); firstKey[k] == "" || rk < firstKey[k] {
			firstKey[k], g.Example = rk, r.Error
		}
	}
	out := make([]InfraLoss, 0, len(groups))
	for _, g := range groups {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b InfraLoss) int {
		return cmp.Or(cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}

// InfraMarkdown writes, when some records ended in an infrastructure
// failure, a paragraph that says how many episodes each agent lost and
// why, one line per agent and kind. It writes nothing otherwise.
func InfraMarkdown(w io.Writer, recs []results.Record) error {
	losses := InfraLosses(recs)
	if len(losses) == 0 {
		return nil
	}
	total := 0
	for _, l := range losses {
		total += l.Episodes
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n**Not scored: %d %s lost to infrastructure errors** (the provider, the network or a cassette failed; they are in no rate of these tables, and a rerun of the same command runs them again):\n\n",
		total, plural(total, "episode", "episodes"))
	for _, l := range losses {
		who := l.Agent
		if l.Model != "" {
			who += " (" + l.Model + ")"
		}
		fmt.Fprintf(&b, "- %s: %d %s, %s, e.g. %s\n", who, l.Episodes, plural(l.Episodes, "episode", "episodes"), l.Kind, oneLine(l.Example, 160))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
