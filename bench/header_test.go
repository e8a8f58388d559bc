package bench

import (
	"strconv"
	"strings"
	"testing"
)

// The header writer writes each config line once, again only when its
// value changes (benchfmt's config holds until the next line for the
// key), and each unit's direction once (benchfmt refuses a second one).
func TestHeaderWriter(t *testing.T) {
	t.Parallel()
	h := newHeaderWriter()
	var out strings.Builder
	cfg := func(model, seed string) [][2]string {
		return [][2]string{{"model", model}, {"seed", seed}, {"ambibench-version", "1"}}
	}
	ms := []Metric{{1, "SR", HigherIsBetter}, {2, "calls/op", LowerIsBetter}, {3, "first", ""}}
	h.write(&out, cfg("sim", "1"), ms)
	h.write(&out, cfg("sim", "1"), ms)
	h.write(&out, cfg("sim:weak", "1"), append(ms, Metric{4, "ADA", HigherIsBetter}))
	want := "model: sim\nseed: 1\nambibench-version: 1\nUnit SR better=higher\nUnit calls/op better=lower\n" +
		"model: sim:weak\nUnit ADA better=higher\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestBenchmarkConfig(t *testing.T) {
	t.Parallel()
	got := BenchmarkConfig(Options{Seed: 42})
	want := [][2]string{{"model", "none"}, {"seed", "42"}, {"ambibench-version", strconv.Itoa(SuiteVersion)}}
	if len(got) < len(want) {
		t.Fatalf("got %v, want %v first", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %v, want %v", i, got[i], want[i])
		}
	}
}
