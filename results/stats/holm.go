package stats

import (
	"cmp"
	"slices"
)

// Holm adjusts p-values for multiple comparisons by Holm's step-down
// method: sorted ascending, the i-th smallest (from 0) becomes
// max over j ≤ i of min(1, (m−j)·p_j). The result is in the order of ps.
// It controls the family-wise error rate at any dependence between the
// tests.
func Holm(ps []float64) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	out := make([]float64, m)
	run := 0.0
	for j, i := range order {
		run = max(run, min(1, float64(m-j)*ps[i]))
		out[i] = run
	}
	return out
}
