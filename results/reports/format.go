package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results/stats"
)

// section writes a section's title and, if any, its caption.
func section(b *strings.Builder, title, caption string) {
	fmt.Fprintf(b, "## %s\n\n", title)
	if caption != "" {
		fmt.Fprintf(b, "%s\n\n", caption)
	}
}

// header writes a table's header row and the rule under it.
func header(b *strings.Builder, fields ...string) {
	writeRow(b, fields)
	rule := make([]string, len(fields))
	for i := range rule {
		rule[i] = "---"
	}
	writeRow(b, rule)
}

// writeRow writes one table row, escaping what would break the table.
func writeRow(b *strings.Builder, fields []string) {
	b.WriteString("|")
	for _, f := range fields {
		b.WriteString(" ")
		b.WriteString(escapeCell(f))
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

var cellEscaper = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")

func escapeCell(s string) string {
	return cellEscaper.Replace(s)
}

// fixed2 writes v with two decimals.
func fixed2(v float64) string {
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// withInterval reads "0.95 [0.89, 0.98]": the rate and its 95% Wilson
// interval.
func withInterval(r stats.Rate) string {
	lo, hi := r.Interval()
	return fmt.Sprintf("%s [%s, %s]", fixed2(r.Value()), fixed2(lo), fixed2(hi))
}

// rateCell reads "0.95 [0.89, 0.98] (n=400)", or "—" without episodes.
func rateCell(r stats.Rate) string {
	if r.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%s (n=%d)", withInterval(r), r.N)
}

// meanCell reads "0.34 [0.29, 0.40]".
func meanCell(e stats.Estimate) string {
	if !e.OK {
		return "—"
	}
	if !e.Interval || degenerate(e) {
		return fixed2(e.Value)
	}
	return fmt.Sprintf("%s [%s, %s]", fixed2(e.Value), fixed2(e.Lo), fixed2(e.Hi))
}

// tokenCell reads "2,218 [1,950–2,540]": whole tokens, the interval's
// bounds joined by a dash, since a comma already groups the digits.
func tokenCell(e stats.Estimate) string {
	if !e.OK {
		return "—"
	}
	round := func(v float64) string { return grouped(int64(math.Round(v))) }
	if !e.Interval || degenerate(e) {
		return round(e.Value)
	}
	return fmt.Sprintf("%s [%s–%s]", round(e.Value), round(e.Lo), round(e.Hi))
}

// degenerate reports whether e's interval is the value itself: a column
// that is constant over the games, which an interval adds nothing to.
func degenerate(e stats.Estimate) bool { return e.Lo == e.Value && e.Hi == e.Value }

// perEpisode is total/n with two decimals, "—" without episodes.
func perEpisode(total, n int) string {
	if n == 0 {
		return "—"
	}
	return fixed2(float64(total) / float64(n))
}

// tokens is total/n rounded to a whole number with thousands separators,
// "—" when n is 0.
func tokens(total, n int) string {
	if n == 0 {
		return "—"
	}
	return grouped(int64(math.Round(float64(total) / float64(n))))
}

// grouped writes v with thousands separators: "28,600".
func grouped(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// mean of vs, summed in sorted order so that it does not depend on the
// order of the records; "—" when vs is empty.
func mean(vs []float64) string {
	if len(vs) == 0 {
		return "—"
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	return fixed2(sum / float64(len(s)))
}

// pValue gives three decimals, or two significant digits below 0.001.
func pValue(p float64) string {
	if p >= 0.001 {
		return strconv.FormatFloat(p, 'f', 3, 64)
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// oneLine shortens an error message to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(no message)"
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return "`" + s + "`"
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
