package stats

import (
	"math"
	"math/big"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// exactP is McNemarP by exact rational arithmetic, the reference the fast
// version is checked against.
func exactP(b, c int) float64 {
	n, k := b+c, min(b, c)
	if n == 0 {
		return 1
	}
	tail, term := new(big.Int), big.NewInt(1) // term = C(n, i)
	for i := 0; i <= k; i++ {
		tail.Add(tail, term)
		term.Mul(term, big.NewInt(int64(n-i)))
		term.Quo(term, big.NewInt(int64(i+1)))
	}
	p := new(big.Rat).SetFrac(new(big.Int).Lsh(tail, 1), new(big.Int).Lsh(big.NewInt(1), uint(n)))
	f, _ := p.Float64()
	return math.Min(1, f)
}

func TestMcNemarP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		why  string
		b, c int
		want float64
	}{
		{"textbook case: 2·11/1024", 1, 9, 0.021484375},
		{"no discordant pairs: no evidence", 0, 0, 1},
		{"balanced discordance", 5, 5, 1},
		{"one discordant pair can never be significant", 0, 1, 1},
		{"all discordance one way, n=5: 2/32", 0, 5, 0.0625},
		{"symmetric in b and c", 9, 1, 0.021484375},
		{"tail of three terms: 2·56/1024", 2, 8, 0.109375},
		{"off by one from balance stays at 1", 5, 6, 1},
		{"negative counts read as zero", -3, 5, 0.0625},
		{"four-term tail, n=20: 2·(1+20+190+1140)/2^20", 3, 17, 2 * 1351.0 / 1048576},
	}
	for _, tt := range tests {
		got := McNemarP(tt.b, tt.c)
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: McNemarP(%d, %d) = %.15g, want %.15g", tt.why, tt.b, tt.c, got, tt.want)
		}
	}
}

// Over a grid of counts, small and large, the fast sum agrees with exact
// rational arithmetic to a relative 1e-9 — including where 2^-n alone
// underflows a float64. Below the normal range (1e-300 here) a float64 has
// too few digits to compare; there only the order of magnitude must hold.
func TestMcNemarPMatchesExact(t *testing.T) {
	t.Parallel()
	counts := []int{0, 1, 2, 3, 7, 20, 50, 100, 333, 600, 1500}
	for _, b := range counts {
		for _, c := range counts {
			got, want := McNemarP(b, c), exactP(b, c)
			if want < 1e-300 {
				if got > 1e-299 {
					t.Errorf("McNemarP(%d, %d) = %g, want below 1e-300", b, c, got)
				}
				continue
			}
			if rel := math.Abs(got-want) / want; rel > 1e-9 {
				t.Errorf("McNemarP(%d, %d) = %.15g, exact %.15g (relative error %g)", b, c, got, want, rel)
			}
		}
	}
	// Near balance with a large n: a tail of many comparable terms.
	if got, want := McNemarP(4900, 5100), exactP(4900, 5100); math.Abs(got-want)/want > 1e-9 {
		t.Errorf("McNemarP(4900, 5100) = %.15g, exact %.15g", got, want)
	}
}

func TestMcNemarPairs(t *testing.T) {
	t.Parallel()
	mk := func(agent, model string, ep int, success bool) results.Record {
		r := rec(agent, "pick_place", "absence", success, success)
		r.Model, r.Episode = model, ep
		return r
	}
	// A succeeds on 0-5, B on 4-8; 9 only A ran; 10 only B ran.
	var a, b []results.Record
	for ep := range 10 {
		a = append(a, mk("direct", "sim", ep, ep <= 5))
	}
	for ep := range 11 {
		if ep == 9 {
			continue
		}
		b = append(b, mk("sgcot", "sim", ep, ep >= 4 && ep <= 8))
	}
	// The same episode at another scene size is another episode.
	sized := mk("sgcot", "sim", 0, false)
	sized.SceneSize = 24
	b = append(b, sized)

	got := McNemar(a, b, func(r results.Record) bool { return r.Success })
	want := Paired{Pairs: 9, Both: 2, B: 4, C: 3, P: McNemarP(4, 3)}
	if got != want {
		t.Errorf("McNemar = %+v, want %+v", got, want)
	}
	if ra, rb := got.RateA(), got.RateB(); ra != (Rate{6, 9}) || rb != (Rate{5, 9}) {
		t.Errorf("rates %v, %v; want 6/9 and 5/9", ra, rb)
	}
	// Swapping the sides swaps b and c and keeps p.
	if sw := McNemar(b, a, func(r results.Record) bool { return r.Success }); sw.B != got.C || sw.C != got.B || sw.P != got.P || sw.Pairs != got.Pairs {
		t.Errorf("swapped = %+v, want b and c of %+v swapped", sw, got)
	}
	if none := McNemar(a, nil, func(r results.Record) bool { return r.Success }); none != (Paired{P: 1}) {
		t.Errorf("no partner records: %+v, want zero pairs and p = 1", none)
	}
}

// FuzzMcNemarP: any counts give a p in [0, 1], symmetric in b and c, never
// smaller when the counts move towards balance.
func FuzzMcNemarP(f *testing.F) {
	for _, s := range [][2]int{{0, 0}, {1, 9}, {5, 5}, {0, 2000}, {-1, 3}, {4900, 5100}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, b, c int) {
		b, c = b%100000, c%100000 // keep n small enough to stay fast
		p := McNemarP(b, c)
		if math.IsNaN(p) || p < 0 || p > 1 {
			t.Fatalf("McNemarP(%d, %d) = %g, outside [0, 1]", b, c, p)
		}
		if q := McNemarP(c, b); q != p {
			t.Fatalf("McNemarP(%d, %d) = %g but McNemarP(%d, %d) = %g", b, c, p, c, b, q)
		}
		lo, hi := min(max(b, 0), max(c, 0)), max(b, c, 0)
		if hi-lo >= 2 {
			if q := McNemarP(lo+1, hi-1); q < p*(1-1e-12) {
				t.Fatalf("McNemarP(%d, %d) = %g < McNemarP(%d, %d) = %g: closer to balance gave less", lo+1, hi-1, q, lo, hi, p)
			}
		}
	})
}
