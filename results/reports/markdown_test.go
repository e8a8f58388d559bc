package reports

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

var update = flag.Bool("update", false, "rewrite golden files")

// tableCells is a small grid: two agents, two families, three
// perturbations, with one combination missing and names that need escaping.
func tableCells(byFamily bool) []stats.Cell {
	var recs []results.Record
	add := func(agent, family, perturbation string, n, ada, sr int) {
		for i := range n {
			recs = append(recs, rec(agent, family, perturbation, i < ada, i < sr))
		}
	}
	add("sgcot", "pick_place", "none", 100, 95, 93)
	add("sgcot", "pick_place", "absence", 100, 81, 70)
	add("sgcot", "stack", "absence", 10, 10, 0)
	add("sgcot", "stack", "multiplicity", 10, 5, 5)
	add("rules", "pick_place", "none", 100, 100, 100)
	add("rules", "pick_place", "absence", 100, 0, 0)
	add("a|b", "stack", "none", 1, 1, 1) // a pipe in a name must not split the cell
	return stats.Aggregate(recs, stats.AggregateOptions{
		ByFamily:      byFamily,
		Agents:        []string{"sgcot", "rules"},
		Perturbations: []string{"none", "absence", "multiplicity"},
	})
}

func TestMarkdownGolden(t *testing.T) {
	t.Parallel()
	order := []string{"none", "absence", "multiplicity"}
	tests := []struct {
		name  string // why the row exists; also the golden file's name
		cells []stats.Cell
		opts  TableOptions
	}{
		{"plain", tableCells(false), TableOptions{Perturbations: order}},
		{"intervals", tableCells(false), TableOptions{Intervals: true, Perturbations: order}},
		{"by_family", tableCells(true), TableOptions{ByFamily: true, Intervals: true, Perturbations: order}},
		{"alphabetical_columns", tableCells(false), TableOptions{}},
		{"empty", nil, TableOptions{Intervals: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := Markdown(&b, tt.cells, tt.opts); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "markdown_"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("output differs from %s (run go test -update to accept):\ngot:\n%s\nwant:\n%s", path, b.String(), want)
			}
			var again strings.Builder
			if err := Markdown(&again, tt.cells, tt.opts); err != nil || again.String() != b.String() {
				t.Errorf("second rendering differs (err %v)", err)
			}
		})
	}
}

func TestMarkdownErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string // why the row exists
		cells []stats.Cell
		opts  TableOptions
		want  string
	}{
		{"per-family cells without ByFamily would collide in one row",
			tableCells(true), TableOptions{},
			`markdown table: two cells for agent "sgcot", perturbation "absence" (families "pick_place" and "stack"); set ByFamily or aggregate without it`},
		{"duplicate cells even with ByFamily",
			[]stats.Cell{{Agent: "a", Family: "f", Perturbation: "p"}, {Agent: "a", Family: "f", Perturbation: "p"}}, TableOptions{ByFamily: true},
			`markdown table: two cells for agent "a", family "f", perturbation "p"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			err := Markdown(&b, tt.cells, tt.opts)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Markdown = %v, want %s", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %q despite the error", b.String())
			}
		})
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

func TestMarkdownWriteError(t *testing.T) {
	t.Parallel()
	err := Markdown(errWriter{}, tableCells(false), TableOptions{})
	if err == nil || !strings.Contains(err.Error(), "pipe closed") {
		t.Fatalf("Markdown = %v, want the write error", err)
	}
}
