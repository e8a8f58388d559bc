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
	var t InfraTally
	for i := range recs {
		t.Add(&recs[i])
	}
	return t.Losses()
}

// InfraTally is [InfraLosses] a record at a time, for a caller that does
// not hold the records: it keeps one line per agent, model and kind. The
// zero InfraTally is empty and ready.
type InfraTally struct {
	groups   map[infraKey]*InfraLoss
	firstKey map[infraKey]string
}

type infraKey struct{ agent, model, kind string }

// Add counts r if it ended in an infrastructure failure.
func (t *InfraTally) Add(r *results.Record) {
	if r.Outcome != results.OutcomeInfraError {
		return
	}
	if t.groups == nil {
		t.groups, t.firstKey = map[infraKey]*InfraLoss{}, map[infraKey]string{}
	}
	k := infraKey{r.Agent, r.Model, r.ErrorKind}
	g := t.groups[k]
	if g == nil {
		g = &InfraLoss{Agent: r.Agent, Model: r.Model, Kind: r.ErrorKind}
		t.groups[k] = g
	}
	g.Episodes++
	if rk := r.Key(); t.firstKey[k] == "" || rk < t.firstKey[k] {
		t.firstKey[k], g.Example = rk, r.Error
	}
}

// Losses are the losses counted so far, sorted as InfraLosses sorts them.
func (t *InfraTally) Losses() []InfraLoss {
	out := make([]InfraLoss, 0, len(t.groups))
	for _, g := range t.groups {
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
	return InfraLossesMarkdown(w, InfraLosses(recs))
}

// InfraLossesMarkdown is [InfraMarkdown] of the losses an [InfraTally]
// counted.
func InfraLossesMarkdown(w io.Writer, losses []InfraLoss) error {
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
