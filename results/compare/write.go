package compare

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteText writes the comparison as an aligned table, one row per
// comparison, after a summary.
func WriteText(w io.Writer, r Result) error {
	writeCompareSummary(w, r, false)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\ttrack\tcell\tmetric\tn\tbase\tnew\tdiff\tb\tc\tp\tp(Holm)\tverdict")
	for _, c := range r.Comparisons {
		fmt.Fprintln(tw, strings.Join(compareRow(c), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, compareVerdict(r))
	return err
}

// WriteMarkdown writes the comparison for a pull-request comment:
// the verdict, the summary, a table of the comparisons that moved (worse
// or better), and every comparison in a collapsed table.
func WriteMarkdown(w io.Writer, r Result) error {
	fmt.Fprintf(w, "### ambibench compare: %s\n\n", compareVerdict(r))
	writeCompareSummary(w, r, true)
	header := "| agent | track | cell | metric | n | base | new | diff | b | c | p | p (Holm) | verdict |\n" +
		"| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
	table := func(cs []Comparison) {
		io.WriteString(w, header)
		for _, c := range cs {
			row := compareRow(c)
			if c.Failed() {
				row[len(row)-1] = "**" + row[len(row)-1] + "**"
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
	var moved []Comparison
	for _, c := range r.Comparisons {
		if c.Verdict != VerdictSame {
			moved = append(moved, c)
		}
	}
	if len(moved) == 0 {
		io.WriteString(w, "\nNo comparison moved significantly.\n")
	} else {
		io.WriteString(w, "\n")
		table(moved)
	}
	fmt.Fprintf(w, "\n<details><summary>All %d comparisons</summary>\n\n", len(r.Comparisons))
	table(r.Comparisons)
	_, err := io.WriteString(w, "\n</details>\n")
	return err
}

func compareRow(c Comparison) []string {
	gate := ""
	if !c.Gated {
		gate = " (not gated)"
	}
	return []string{c.Agent, c.Track, c.Cell(), c.Metric, strconv.Itoa(c.Pairs),
		fmt.Sprintf("%.3f", c.RateA().Value()), fmt.Sprintf("%.3f", c.RateB().Value()), fmt.Sprintf("%+.3f", c.Diff()),
		strconv.Itoa(c.B), strconv.Itoa(c.C), formatP(c.P), formatP(c.Holm), c.Verdict + gate}
}

// formatP writes a p-value with three significant digits, small ones in
// exponent form.
func formatP(p float64) string {
	if p >= 0.001 {
		return strconv.FormatFloat(p, 'f', 3, 64)
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

func compareVerdict(r Result) string {
	f := r.Failures()
	if len(f) == 0 {
		return "PASS: no gated comparison is significantly worse"
	}
	var names []string
	for _, c := range f[:min(len(f), 5)] {
		names = append(names, fmt.Sprintf("%s %s %s %s %+.3f (p=%s, Holm p=%s)", c.Agent, c.Track, c.Cell(), c.Metric, c.Diff(), formatP(c.P), formatP(c.Holm)))
	}
	s := fmt.Sprintf("FAIL: %d gated %s significantly worse by %.3f or more: %s", len(f), plural(len(f), "comparison is", "comparisons are"), r.Options.MinEffect, strings.Join(names, "; "))
	if len(f) > 5 {
		s += fmt.Sprintf("; and %d more", len(f)-5)
	}
	return s
}

func writeCompareSummary(w io.Writer, r Result, md bool) {
	item := func(format string, args ...any) {
		if md {
			io.WriteString(w, "- ")
		}
		fmt.Fprintf(w, format+"\n", args...)
	}
	models := func(ms []string) string {
		for i, m := range ms {
			if m == "" {
				ms[i] = "(none)"
			}
		}
		return strings.Join(ms, ", ")
	}
	item("models: BASE %s; NEW %s", models(slices.Clone(r.BaseModels)), models(slices.Clone(r.NewModels)))
	item("%d paired episodes; %d %s left out for infrastructure errors (%d in BASE, %d in NEW)",
		r.Pairs(), r.InfraPairs, plural(r.InfraPairs, "pair", "pairs"), r.InfraBase, r.InfraNew)
	gated := func(list []string, all string) string {
		if len(list) == 0 {
			return all
		}
		return strings.Join(list, ", ")
	}
	item("gate: α %g after Holm's correction over %d comparisons, minimum effect %g; agents gated: %s; metrics gated: %s",
		r.Options.Alpha, len(r.Comparisons), r.Options.MinEffect, gated(r.Options.Agents, "all"), gated(r.Options.Metrics, "each cell's (SR and ADA; Top1 for queries)"))
	only := func(which string, gs []string) {
		if len(gs) == 0 {
			return
		}
		s := strings.Join(gs[:min(len(gs), 5)], "; ")
		if len(gs) > 5 {
			s += fmt.Sprintf("; and %d more", len(gs)-5)
		}
		item("only in %s, not compared: %d agent-and-cell %s: %s", which, len(gs), plural(len(gs), "group", "groups"), s)
	}
	only("BASE", r.OnlyBase)
	only("NEW", r.OnlyNew)
	if !md {
		io.WriteString(w, "\n")
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
