package reports

import (
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/internal/recordtest"
)

// The records the tests build on, shared with the other results packages.
var (
	rec         = recordtest.Rec
	validRecord = recordtest.Valid
)

// filter returns the records of recs that keep accepts.
func filter(recs []results.Record, keep func(results.Record) bool) []results.Record {
	var out []results.Record
	for _, r := range recs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}
