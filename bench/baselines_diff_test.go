package bench_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// baselineDiff is what TestBaselines (make test-long) finds between the
// stored baseline of a run and this run's records, paired by key
// (results.Record.Key), not by position, so that a record added in the
// middle of the grid (a new agent, family or perturbation) is named as
// new and does not shift every record after it into "moved".
type baselineDiff struct {
	stored, now int      // records on each side
	moved       []string // "key: field: stored → now; …", in this run's order
	added       []string // keys this run wrote that the baseline lacks
	gone        []string // keys the baseline holds that this run did not write
	twice       []string // keys either side holds more than once
	reordered   bool     // the records both hold come in another order
	newValues   []string // "agent oneshot (20 records)": a name no stored record has
}

// diffBaseline pairs want (stored) and got (now) by key.
func diffBaseline(want, got []results.Record) baselineDiff {
	d := baselineDiff{stored: len(want), now: len(got)}
	index := func(recs []results.Record, side string) map[string]int {
		m := make(map[string]int, len(recs))
		for i, r := range recs {
			k := r.Key()
			if _, dup := m[k]; dup {
				d.twice = append(d.twice, side+" "+k)
			}
			m[k] = i
		}
		return m
	}
	wantAt, gotAt := index(want, "stored"), index(got, "now")
	var common []int // positions in want of the keys got holds, in got's order
	for _, r := range got {
		k := r.Key()
		i, ok := wantAt[k]
		if !ok {
			d.added = append(d.added, k)
			continue
		}
		common = append(common, i)
		if diff := fieldDiff(want[i], r); diff != "" {
			d.moved = append(d.moved, k+": "+diff)
		}
	}
	for _, r := range want {
		if _, ok := gotAt[r.Key()]; !ok {
			d.gone = append(d.gone, r.Key())
		}
	}
	d.reordered = !slices.IsSorted(common)
	// Names on the new side that no stored record has: what was added.
	for _, dim := range []struct {
		name string
		of   func(results.Record) string
	}{
		{"track", func(r results.Record) string { return r.Track }},
		{"family", func(r results.Record) string { return r.Family }},
		{"perturbation", func(r results.Record) string { return r.Perturbation }},
		{"agent", func(r results.Record) string { return r.Agent }},
		{"model", func(r results.Record) string { return r.Model }},
	} {
		had := map[string]bool{}
		for _, r := range want {
			had[dim.of(r)] = true
		}
		count := map[string]int{}
		var order []string
		for _, r := range got {
			if v := dim.of(r); !had[v] {
				if count[v] == 0 {
					order = append(order, v)
				}
				count[v]++
			}
		}
		for _, v := range order {
			d.newValues = append(d.newValues, fmt.Sprintf("%s %s (%d records)", dim.name, cmp.Or(v, `""`), count[v]))
		}
	}
	return d
}

// same reports whether the two runs hold the same records in the same
// order.
func (d baselineDiff) same() bool {
	return len(d.moved)+len(d.added)+len(d.gone)+len(d.twice) == 0 && !d.reordered
}

// report is the diff in lines: up to max of each kind, then a summary
// that says what moved and what to do.
func (d baselineDiff) report(stored string, max int) []string {
	var out []string
	some := func(what string, keys []string) {
		for i, k := range keys {
			if i == max {
				out = append(out, fmt.Sprintf("… and %d more %s", len(keys)-max, what))
				break
			}
			out = append(out, what+": "+k)
		}
	}
	some("moved", d.moved)
	some("new", d.added)
	some("gone", d.gone)
	some("twice", d.twice)
	if d.same() {
		return out
	}
	parts := []string{fmt.Sprintf("%d of %d stored records moved", len(d.moved), d.stored)}
	if len(d.added) > 0 {
		parts = append(parts, fmt.Sprintf("this run wrote %d records the baseline lacks", len(d.added)))
	}
	if len(d.gone) > 0 {
		parts = append(parts, fmt.Sprintf("%d stored records were not written", len(d.gone)))
	}
	if len(d.twice) > 0 {
		parts = append(parts, fmt.Sprintf("%d keys appear twice", len(d.twice)))
	}
	if d.reordered {
		parts = append(parts, "the records both hold are in another order")
	}
	s := stored + ": " + strings.Join(parts, "; ")
	if len(d.newValues) > 0 {
		s += " (new: " + strings.Join(d.newValues, ", ") + ")"
	}
	return append(out, s+"; if the change is meant (a new agent, task family or perturbation of the default suite adds records), regenerate with make baselines, raise bench.SuiteVersion if scores moved, and explain the diff")
}

// fieldDiff lists the JSON fields in which two records differ, as
// "field: stored → now", or "" when they are the same.
func fieldDiff(a, b results.Record) string {
	fields := func(r results.Record) map[string]string {
		var buf bytes.Buffer
		results.NewWriter(&buf).Write(r)
		var m map[string]json.RawMessage
		json.Unmarshal(buf.Bytes(), &m)
		out := map[string]string{}
		for k, v := range m {
			out[k] = string(v)
		}
		return out
	}
	fa, fb := fields(a), fields(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if fa[k] != fb[k] {
			parts = append(parts, fmt.Sprintf("%s: %s → %s", k, cmp.Or(fa[k], "(none)"), cmp.Or(fb[k], "(none)")))
		}
	}
	return strings.Join(parts, "; ")
}

// The baseline check pairs records by key: a perturbation added in the
// middle of the grid is new records, named as such, not every later
// record moved; a record that changed is named with its fields.
func TestBaselineDiffPairsByKey(t *testing.T) {
	t.Parallel()
	rec := func(pert string, ep int, success bool) results.Record {
		return results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place",
			Perturbation: pert, Label: "none", Agent: "rules", Model: "", Seed: 1, Episode: ep, Success: success}
	}
	stored := []results.Record{rec("absence", 0, true), rec("absence", 1, true), rec("none", 0, true), rec("none", 1, true)}
	for _, tc := range []struct {
		why   string
		now   []results.Record
		want  []string // lines of the report, each a prefix
		moved int
	}{
		{"the same run", stored, nil, 0},
		{"a perturbation added in the middle of the grid", []results.Record{stored[0], stored[1], rec("courteous", 0, true), rec("courteous", 1, true), stored[2], stored[3]},
			[]string{`new: "tabletop"/"pick_place"/"courteous"/"rules"/""/1/0`, `new: "tabletop"/"pick_place"/"courteous"/"rules"/""/1/1`,
				"stored: 0 of 4 stored records moved; this run wrote 2 records the baseline lacks (new: perturbation courteous (2 records)); if the change is meant"}, 0},
		{"a record that moved", []results.Record{stored[0], rec("absence", 1, false), stored[2], stored[3]},
			[]string{`moved: "tabletop"/"pick_place"/"absence"/"rules"/""/1/1: success: true → false`, "stored: 1 of 4 stored records moved; if the change is meant"}, 1},
		{"a record gone and the rest in another order", []results.Record{stored[2], stored[3], stored[0]},
			[]string{`gone: "tabletop"/"pick_place"/"absence"/"rules"/""/1/1`, "stored: 0 of 4 stored records moved; 1 stored records were not written; the records both hold are in another order"}, 0},
	} {
		d := diffBaseline(stored, tc.now)
		lines := d.report("stored", 8)
		if len(lines) != len(tc.want) || len(d.moved) != tc.moved {
			t.Errorf("%s: %d moved, report\n%s\nwant %d lines", tc.why, len(d.moved), strings.Join(lines, "\n"), len(tc.want))
			continue
		}
		for i := range lines {
			if !strings.HasPrefix(lines[i], tc.want[i]) {
				t.Errorf("%s: line %d\n%s\nwant\n%s", tc.why, i, lines[i], tc.want[i])
			}
		}
	}
}
