package stats

import "github.com/ambibench/ambibench/results/internal/recordtest"

// The records the tests build on, shared with the other results packages.
var (
	rec         = recordtest.Rec
	validRecord = recordtest.Valid
)
