package view

import (
	"regexp"
	"strings"
)

// block is one block of a Markdown document as the site shows it: a
// heading, a paragraph, an image or a table. Text is shown as text.
type block struct {
	Heading int    // 1 to 6 for a heading, else 0
	Text    string // a heading's or a paragraph's text
	Image   string // an image's file, for a line ![alt](file)
	Alt     string
	Header  []string   // a table's header row
	Rows    [][]string // a table's rows
	// Links holds, for each cell of Rows, the link it is shown as, ""
	// for text (see linkCells).
	Links [][]string
	// Details opens a folded part with this summary (a line
	// "<details><summary>…</summary>", as compare writes); EndDetails
	// closes the last one opened.
	Details    string
	EndDetails bool
}

// Link is the link of the cell of row i and column j, "" for none.
func (b block) Link(i, j int) string {
	if i < len(b.Links) && j < len(b.Links[i]) {
		return b.Links[i][j]
	}
	return ""
}

var (
	imageLine   = regexp.MustCompile(`^!\[([^\]]*)\]\(([^)\s]+)\)$`)
	detailsLine = regexp.MustCompile(`^<details><summary>(.+)</summary>$`)
)

// parseMarkdown reads the Markdown the reports write: headings, pipe
// tables, image lines, folded parts (<details>, the only HTML they
// write, on lines of their own) and paragraphs. Anything else is kept as
// a paragraph of text.
func parseMarkdown(md string) []block {
	var out []block
	var para []string
	open := 0 // <details> opened and not closed
	flush := func() {
		if len(para) > 0 {
			out = append(out, block{Text: strings.Join(para, " ")})
			para = nil
		}
	}
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "#"):
			flush()
			n := len(line) - len(strings.TrimLeft(line, "#"))
			out = append(out, block{Heading: min(n, 6), Text: strings.TrimSpace(line[n:])})
		case strings.HasPrefix(line, "|"):
			flush()
			t := block{Header: cells(line)}
			for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "|") {
				i++
				row := cells(strings.TrimSpace(lines[i]))
				if isRule(row) {
					continue
				}
				t.Rows = append(t.Rows, row)
			}
			out = append(out, t)
		case detailsLine.MatchString(line):
			flush()
			out = append(out, block{Details: detailsLine.FindStringSubmatch(line)[1]})
			open++
		case line == "</details>" && open > 0:
			flush()
			out = append(out, block{EndDetails: true})
			open--
		case imageLine.MatchString(line):
			flush()
			m := imageLine.FindStringSubmatch(line)
			out = append(out, block{Image: m[2], Alt: m[1]})
		default:
			para = append(para, line)
		}
	}
	flush()
	for ; open > 0; open-- {
		out = append(out, block{EndDetails: true})
	}
	return out
}

// cells splits a table row "| a | b |" into its cells.
func cells(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	parts := strings.Split(line, "|")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// isRule reports whether a row is a table's header rule: "--- | :---: |".
func isRule(row []string) bool {
	for _, c := range row {
		if strings.Trim(c, "-: ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}
