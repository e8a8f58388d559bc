package stats

import (
	"math"

	"github.com/ambibench/ambibench/results"
)

// Paired is the comparison of two agents, A and B, on one binary outcome
// (SR or ADA) over the episodes both of them ran.
type Paired struct {
	Pairs int     // episodes both agents ran
	Both  int     // pairs where both succeeded
	B     int     // pairs where A succeeded and B failed
	C     int     // pairs where A failed and B succeeded
	P     float64 // McNemar's exact two-sided p-value, from B and C
}

// RateA is A's rate over the paired episodes.
func (p Paired) RateA() Rate { return Rate{K: p.Both + p.B, N: p.Pairs} }

// RateB is B's rate over the paired episodes.
func (p Paired) RateB() Rate { return Rate{K: p.Both + p.C, N: p.Pairs} }

// McNemarP returns the exact two-sided p-value of McNemar's test for b and c
// discordant pairs: min(1, 2·P(X ≤ min(b, c))) with X ~ Binomial(b+c, 1/2).
// With no discordant pairs there is no evidence either way and the result is
// 1. Negative counts are treated as 0.
//
// The tail is summed from its largest term, min(b, c), down, each term got
// from the one above by the ratio i/(n−i+1); only the largest term goes
// through log-gamma. That keeps the sum exact to rounding for any n, where
// 2^−n alone would underflow past n ≈ 1074.
func McNemarP(b, c int) float64 {
	b, c = max(b, 0), max(c, 0)
	n, k := b+c, min(b, c)
	if n == 0 || 2*k >= n { // b == c: the tail holds half the mass or more
		return 1
	}
	nf, kf := float64(n), float64(k)
	lgN, _ := math.Lgamma(nf + 1)
	lgK, _ := math.Lgamma(kf + 1)
	lgNK, _ := math.Lgamma(nf - kf + 1)
	logTop := lgN - lgK - lgNK - nf*math.Ln2 // log P(X = k)
	sum, term := 1.0, 1.0
	for i := k; i > 0; i-- {
		term *= float64(i) / float64(n-i+1)
		sum += term
		if term < sum*1e-17 { // further terms no longer change the sum
			break
		}
	}
	return min(1, 2*math.Exp(logTop)*sum)
}

// McNemar pairs the records of agent A with those of agent B that are the
// same episode — same track, family, perturbation, seed, episode index and
// scene size; agent and model are what differ — and compares them on
// outcome, for instance func(r Record) bool { return r.Success }. Records
// of one side without a partner on the other are left out. If a side has
// several records of one episode (records of several models under one
// agent name, say), the last one counts: filter by agent and model first.
// A record that ended in an infrastructure failure is no outcome: its
// pair is left out.
func McNemar(a, b []results.Record, outcome func(results.Record) bool) Paired {
	a, b = results.ScoredOnly(a), results.ScoredOnly(b)
	bySide := make(map[string]bool, len(b))
	for _, r := range b {
		bySide[r.PairKey()] = outcome(r)
	}
	seen := make(map[string]bool, len(a))
	aOut := make(map[string]bool, len(a))
	var order []string
	for _, r := range a {
		k := r.PairKey()
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
		aOut[k] = outcome(r)
	}
	var p Paired
	for _, k := range order {
		yb, ok := bySide[k]
		if !ok {
			continue
		}
		ya := aOut[k]
		p.Pairs++
		switch {
		case ya && yb:
			p.Both++
		case ya:
			p.B++
		case yb:
			p.C++
		}
	}
	p.P = McNemarP(p.B, p.C)
	return p
}
