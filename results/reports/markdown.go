package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results/stats"
)

// TableOptions says how [Markdown] lays out its table.
type TableOptions struct {
	// Intervals adds the 95% Wilson interval to each rate.
	Intervals bool
	// ByFamily gives one row per agent and task family, with a family
	// column; otherwise one row per agent, and the cells must hold one
	// family each (as from Aggregate without ByFamily).
	ByFamily bool
	// Perturbations orders the columns: listed perturbations first, in this
	// order, then the others alphabetically. Only perturbations that occur
	// in the cells get a column.
	Perturbations []string
}

// Markdown writes cells as a Markdown table of ADA and SR, agents down and
// perturbations across, under a line that says what the numbers are. A cell
// reads
//
//	ADA 0.95 [0.89, 0.98] · SR 0.93 [0.86, 0.97] (n=100)
//
// with opts.Intervals, and "0.95 / 0.93 (n=100)" without; a combination with
// no cell reads "—". Rows come in the order their first cell comes in cells
// (Aggregate sorts them). The output depends only on its arguments. It is an
// error if two cells fall on the same row and column.
func Markdown(w io.Writer, cells []stats.Cell, opts TableOptions) error {
	type rowKey struct{ agent, family string }
	type cellKey struct {
		row          rowKey
		perturbation string
	}
	var rows []rowKey
	seenRow := make(map[rowKey]bool)
	var columns []string
	seenColumn := make(map[string]bool)
	grid := make(map[cellKey]stats.Cell, len(cells))
	for _, c := range cells {
		rk := rowKey{agent: c.Agent}
		if opts.ByFamily {
			rk.family = c.Family
		}
		ck := cellKey{rk, c.Perturbation}
		if prev, dup := grid[ck]; dup {
			if opts.ByFamily {
				return fmt.Errorf("markdown table: two cells for agent %q, family %q, perturbation %q", c.Agent, c.Family, c.Perturbation)
			}
			return fmt.Errorf("markdown table: two cells for agent %q, perturbation %q (families %q and %q); set ByFamily or aggregate without it", c.Agent, c.Perturbation, prev.Family, c.Family)
		}
		grid[ck] = c
		if !seenRow[rk] {
			seenRow[rk] = true
			rows = append(rows, rk)
		}
		if !seenColumn[c.Perturbation] {
			seenColumn[c.Perturbation] = true
			columns = append(columns, c.Perturbation)
		}
	}
	slices.SortFunc(columns, stats.OrderBy(opts.Perturbations))

	var b strings.Builder
	if opts.Intervals {
		b.WriteString("ADA / SR with 95% Wilson intervals (n = episodes)\n\n")
	} else {
		b.WriteString("ADA / SR (n = episodes)\n\n")
	}
	if len(cells) == 0 {
		b.WriteString("No results.\n")
	} else {
		header := []string{"agent"}
		if opts.ByFamily {
			header = append(header, "family")
		}
		header = append(header, columns...)
		writeRow(&b, header)
		rule := make([]string, len(header))
		for i := range rule {
			rule[i] = "---"
		}
		writeRow(&b, rule)
		for _, rk := range rows {
			fields := []string{rk.agent}
			if opts.ByFamily {
				fields = append(fields, rk.family)
			}
			for _, p := range columns {
				c, ok := grid[cellKey{rk, p}]
				if !ok {
					fields = append(fields, "—")
					continue
				}
				fields = append(fields, formatCell(c, opts.Intervals))
			}
			writeRow(&b, fields)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("markdown table: %w", err)
	}
	return nil
}

func formatCell(c stats.Cell, intervals bool) string {
	if !intervals {
		return fmt.Sprintf("%s / %s (n=%d)", fixed2(c.ADA.Value()), fixed2(c.SR.Value()), c.N)
	}
	return fmt.Sprintf("ADA %s · SR %s (n=%d)", withInterval(c.ADA), withInterval(c.SR), c.N)
}
