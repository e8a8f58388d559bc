package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/results"
)

// The records Run returns are the records it wrote, though the copies it
// keeps share equal tool-call maps, robot lists and instructions: a map
// shared between records of different counts would show here as a
// returned record unlike its written one.
func TestRunReturnsTheRecordsWritten(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	opts := bench.Options{Track: tabletop.New(), Seed: 5, Agents: []string{"rules", "random", "oracle"}, Episodes: 4, Concurrency: 2}
	recs, err := bench.Run(context.Background(), opts, results.NewWriter(&buf), nil)
	if err != nil {
		t.Fatal(err)
	}
	written := stripWall(t, buf.Bytes())
	if len(recs) != len(written) {
		t.Fatalf("%d records returned, %d written", len(recs), len(written))
	}
	maps := map[uintptr]bool{}
	withCalls := 0
	for i := range recs {
		r := recs[i]
		r.WallMS = 0
		got, _ := json.Marshal(r)
		want, _ := json.Marshal(written[i])
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d returned\n%s\nwritten\n%s", i, got, want)
		}
		if len(r.ToolCalls) > 0 {
			withCalls++
			maps[reflect.ValueOf(r.ToolCalls).Pointer()] = true
		}
	}
	if withCalls == 0 || len(maps) >= withCalls {
		t.Errorf("%d distinct tool-call maps among %d records with calls: equal maps are not shared", len(maps), withCalls)
	}
}
