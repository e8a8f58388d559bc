package bench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// The tables added up a record at a time are the tables of the records
// held, on every track, pooled and by family, with the columns the track
// orders by default and with those a run names.
func TestTablesWriteWhatTableWrites(t *testing.T) {
	t.Parallel()
	for name, opts := range realGrids(t) {
		opts.Episodes = 2
		m, err := models.Open(models.Default, nil) // the simulated model
		if err != nil {
			t.Fatal(err)
		}
		opts.Model = m
		recs, err := bench.Run(context.Background(), opts, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range []bench.TableSpec{{}, {Agents: []string{"rules"}, Perturbations: []string{"none"}}} {
			tables := bench.NewTables(opts.Track, spec)
			for i := range recs {
				tables.Add(&recs[i])
			}
			for _, byFamily := range []bool{false, true} {
				spec.ByFamily = byFamily
				var want, got strings.Builder
				if err := bench.Table(&want, opts.Track, results.ScoredOnly(recs), spec); err != nil {
					t.Fatal(err)
				}
				if err := tables.Write(&got, byFamily); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("%s, %+v: added up\n%s\nheld\n%s", name, spec, got.String(), want.String())
				}
			}
		}
	}
}
