package compare

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// A FieldDiff is a scored field in which two paired records differ.
type FieldDiff struct {
	Key, Field, Base, New string // Key is the PlainKey of BASE's record
}

func (d FieldDiff) String() string {
	return fmt.Sprintf("%s: %s is %s in BASE, %s in NEW", d.Key, d.Field, d.Base, d.New)
}

// unscoredFields are the fields [ExactDiff] ignores: the model, which a
// comparison compares, and the timings, which no two runs share.
var unscoredFields = map[string]bool{"model": true, "wall_ms": true, "latency_p50_ms": true, "latency_p95_ms": true}

// ExactDiff pairs the records as [Runs] does and lists every field,
// but the model and the timings, in which a pair differs, by key and then
// by field in the record's order. Records without a partner are not
// fields of a pair and are not listed; Runs refuses them.
func ExactDiff(base, new []results.Record) []FieldDiff {
	nk := make(map[string]results.Record, len(new))
	for _, r := range new {
		nk[r.EpisodeKey()] = r
	}
	bk := make(map[string]results.Record, len(base))
	for _, r := range base {
		bk[r.EpisodeKey()] = r
	}
	var out []FieldDiff
	rt := reflect.TypeFor[results.Record]()
	for _, k := range slices.Sorted(maps.Keys(bk)) {
		x := bk[k]
		y, ok := nk[k]
		if !ok {
			continue
		}
		vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if unscoredFields[name] {
				continue
			}
			fx, fy := vx.Field(i).Interface(), vy.Field(i).Interface()
			if !reflect.DeepEqual(fx, fy) {
				out = append(out, FieldDiff{Key: x.PlainKey(), Field: name, Base: fmt.Sprint(fx), New: fmt.Sprint(fy)})
			}
		}
	}
	return out
}
