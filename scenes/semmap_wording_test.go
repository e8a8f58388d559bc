package scenes_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// The held-out wording's hash, as committed (1ee59f6) before the
// resolver's vocabulary was touched: the file may not change after, or
// the figure below would no longer be a held-out one.
const wordingBHash = "788419cff7010dd9b126ac69017f65754f05b5874a17ca202e1e30c05fc80e1f"

// maxWordingGap is how much worse the resolver may read the wording it
// was not tuned on than the one it was.
const maxWordingGap = 0.05

// wordingTop1 is the rules agent's Top-1 on a query set over the built-in
// maps (bench's seed): its answer is ResolveObjects of what
// ParseObjectQuery reads in the text (the empty answer when it reads
// nothing, as rules answers), the truth ResolveObjects of the query's
// intent over the same map. An answer is a Top-1 hit, as the semmap
// track scores it, when its first object is in the truth, or when both
// are empty.
func wordingTop1(t *testing.T, path string) (top1 float64, misread []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := mapqueries.ParseIntentQueries(data, path)
	if err != nil {
		t.Fatal(err)
	}
	d := mapqueries.Builtin(1)
	hits, n := 0, 0
	for _, q := range qs {
		req, ok := scenes.ParseObjectQuery(q.Text)
		if !ok || req.String() != q.Intent.String() {
			misread = append(misread, q.ID+": "+q.Text+" -> "+req.String()+", want "+q.Intent.String())
		}
		for _, m := range d.Maps {
			ids, truth := scenes.ResolveObjects(m, req), scenes.ResolveObjects(m, q.Intent)
			if len(ids) == 0 && len(truth) == 0 || len(ids) > 0 && slices.Contains(truth, ids[0]) {
				hits++
			}
			n++
		}
	}
	return float64(hits) / float64(n), misread
}

// TestWordingGeneralises measures the reference reading on the project's
// own queries in two wordings of the same intents: A, which its
// vocabulary was tuned on, and B, held out. B must not be read more than
// maxWordingGap worse than A, or the vocabulary fits A's words rather
// than the classes and affordances.
func TestWordingGeneralises(t *testing.T) {
	const a, b = "../tasks/mapqueries/testdata/wording/queries_a.yaml", "../tasks/mapqueries/testdata/wording/queries_b.yaml"
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if h := sha256.Sum256(data); hex.EncodeToString(h[:]) != wordingBHash {
		t.Fatalf("%s changed since it was committed (sha256 %x, want %s): the held-out wording may not be edited", b, h, wordingBHash)
	}
	ta, missA := wordingTop1(t, a)
	tb, missB := wordingTop1(t, b)
	t.Logf("Top-1 of rules over the built-in maps: wording A (tuned on) %.3f, wording B (held out) %.3f", ta, tb)
	for _, m := range missA {
		t.Logf("A misread %s", m)
	}
	for _, m := range missB {
		t.Logf("B misread %s", m)
	}
	if gap := ta - tb; gap > maxWordingGap+1e-9 || math.IsNaN(gap) {
		t.Errorf("wording B reads %.3f worse than A (%.3f against %.3f); at most %.2f", gap, tb, ta, maxWordingGap)
	}
}
