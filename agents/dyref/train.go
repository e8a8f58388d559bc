package dyref

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Example is one training example: a factor vector and the subset of
// tools that should have been chosen for it.
type Example struct {
	X     []float64
	Label Subset
}

// TrainOptions set the router's training.
type TrainOptions struct {
	Hidden       int     // units of the hidden layer
	Epochs       int     // full-batch steps
	LearningRate float64 // Adam's step size
	L2           float64 // weight decay on w1 and w2 (not the biases)
	Seed         uint64  // seeds the initial weights
	// Tools is how many of AllTools, from the first, the router chooses
	// among: PaperTools, or len(AllTools) with the ambiguity tool.
	Tools int
}

// DefaultTrainOptions are the options the shipped router is trained with.
func DefaultTrainOptions() TrainOptions {
	return TrainOptions{Hidden: 16, Epochs: 400, LearningRate: 0.01, L2: 0.01, Seed: 1, Tools: PaperTools}
}

func (o TrainOptions) check() error {
	switch {
	case o.Hidden < 1 || o.Hidden > maxHidden:
		return fmt.Errorf("Hidden: want 1 to %d, have %d (see DefaultTrainOptions)", maxHidden, o.Hidden)
	case o.Epochs < 1:
		return fmt.Errorf("Epochs: want at least 1, have %d", o.Epochs)
	case !(o.LearningRate > 0) || math.IsInf(o.LearningRate, 0):
		return fmt.Errorf("LearningRate: want a finite positive number, have %v", o.LearningRate)
	case !(o.L2 >= 0) || math.IsInf(o.L2, 0):
		return fmt.Errorf("L2: want a finite number ≥ 0, have %v", o.L2)
	case o.Tools < 1 || o.Tools > len(AllTools):
		return fmt.Errorf("Tools: want 1 to %d, have %d (PaperTools is %d)", len(AllTools), o.Tools, PaperTools)
	}
	return nil
}

// Adam's constants.
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

// Train fits a router to the examples: inputs standardised by the
// examples' mean and standard deviation (a constant feature gets 1),
// weights drawn Glorot-uniform from a PCG generator seeded with
// opts.Seed (w1 row by row, then w2), biases zero, then opts.Epochs
// full-batch Adam steps on the mean cross-entropy plus L2/2 times the
// squared weights. Everything runs in one goroutine in a fixed order (the
// matrix products are gonum's, whose blocks each sum in a fixed order), so
// the same examples and options give bit-identical weights on a given
// platform.
func Train(examples []Example, opts TrainOptions) (*Router, error) {
	if err := opts.check(); err != nil {
		return nil, fmt.Errorf("dyref: train: %w", err)
	}
	if len(examples) == 0 {
		return nil, fmt.Errorf("dyref: train: no examples")
	}
	n, d := len(examples), len(examples[0].X)
	if d < 1 || d > maxInputs {
		return nil, fmt.Errorf("dyref: train: example 0 has %d features; want 1 to %d", d, maxInputs)
	}
	for i, e := range examples {
		if len(e.X) != d {
			return nil, fmt.Errorf("dyref: train: example %d has %d features, example 0 has %d", i, len(e.X), d)
		}
		if e.Label > FirstTools(opts.Tools) {
			return nil, fmt.Errorf("dyref: train: example %d: label %d is not a subset of the %d tools (0 to %d)", i, e.Label, opts.Tools, FirstTools(opts.Tools))
		}
		for j, x := range e.X {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("dyref: train: example %d: feature %d is %v", i, j, x)
			}
		}
	}
	h, k := opts.Hidden, 1<<opts.Tools

	mean, std := make([]float64, d), make([]float64, d)
	for _, e := range examples {
		for j, x := range e.X {
			mean[j] += x
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for _, e := range examples {
		for j, x := range e.X {
			std[j] += (x - mean[j]) * (x - mean[j])
		}
	}
	for j := range std {
		std[j] = math.Sqrt(std[j] / float64(n))
		if !(std[j] > 1e-12) || math.IsInf(std[j], 0) {
			std[j] = 1
		}
	}
	x := mat.NewDense(n, d, nil)
	y := mat.NewDense(n, k, nil)
	for i, e := range examples {
		row := x.RawRowView(i)
		for j, v := range e.X {
			row[j] = (v - mean[j]) / std[j]
		}
		y.Set(i, int(e.Label), 1)
	}

	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	w1, w2 := glorot(rng, h, d), glorot(rng, k, h)
	b1, b2 := make([]float64, h), make([]float64, k)

	params := [][]float64{w1.RawMatrix().Data, b1, w2.RawMatrix().Data, b2}
	grads := make([][]float64, len(params))
	m1 := make([][]float64, len(params))
	m2 := make([][]float64, len(params))
	for i, p := range params {
		grads[i], m1[i], m2[i] = make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
	}
	dw1 := mat.NewDense(h, d, grads[0])
	db1 := grads[1]
	dw2 := mat.NewDense(k, h, grads[2])
	db2 := grads[3]

	a1 := mat.NewDense(n, h, nil)
	z2 := mat.NewDense(n, k, nil)
	da1 := mat.NewDense(n, h, nil)
	for step := 1; step <= opts.Epochs; step++ {
		// Forward.
		a1.Mul(x, w1.T())
		for i := range n {
			row := a1.RawRowView(i)
			for j := range row {
				row[j] = math.Tanh(row[j] + b1[j])
			}
		}
		z2.Mul(a1, w2.T())
		// z2 becomes the gradient of the mean loss at the logits:
		// (softmax − one-hot) / n.
		for i := range n {
			row := z2.RawRowView(i)
			for j := range row {
				row[j] += b2[j]
			}
			softmax(row)
			want := y.RawRowView(i)
			for j := range row {
				row[j] = (row[j] - want[j]) / float64(n)
			}
		}
		// Backward.
		dw2.Mul(z2.T(), a1)
		colSums(db2, z2)
		da1.Mul(z2, w2)
		for i := range n {
			g, a := da1.RawRowView(i), a1.RawRowView(i)
			for j := range g {
				g[j] *= 1 - a[j]*a[j]
			}
		}
		dw1.Mul(da1.T(), x)
		colSums(db1, da1)
		if opts.L2 > 0 {
			for _, pg := range [][2][]float64{{params[0], grads[0]}, {params[2], grads[2]}} {
				for j, w := range pg[0] {
					pg[1][j] += opts.L2 * w
				}
			}
		}
		// Adam.
		c1 := 1 - math.Pow(adamBeta1, float64(step))
		c2 := 1 - math.Pow(adamBeta2, float64(step))
		for p := range params {
			for j, g := range grads[p] {
				m1[p][j] = adamBeta1*m1[p][j] + (1-adamBeta1)*g
				m2[p][j] = adamBeta2*m2[p][j] + (1-adamBeta2)*g*g
				params[p][j] -= opts.LearningRate * (m1[p][j] / c1) / (math.Sqrt(m2[p][j]/c2) + adamEps)
			}
		}
	}
	for _, p := range params {
		for j, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("dyref: train: weight %d diverged to %v; lower LearningRate", j, v)
			}
		}
	}
	return &Router{mean: mean, std: std, w1: w1, b1: b1, w2: w2, b2: b2}, nil
}

// glorot draws a rows×cols matrix uniform in ±√(6/(rows+cols)), row by
// row.
func glorot(rng *rand.Rand, rows, cols int) *mat.Dense {
	limit := math.Sqrt(6 / float64(rows+cols))
	data := make([]float64, rows*cols)
	for i := range data {
		data[i] = (2*rng.Float64() - 1) * limit
	}
	return mat.NewDense(rows, cols, data)
}

// colSums writes the column sums of m into dst, row after row.
func colSums(dst []float64, m *mat.Dense) {
	clear(dst)
	rows, _ := m.Dims()
	for i := range rows {
		for j, v := range m.RawRowView(i) {
			dst[j] += v
		}
	}
}

// CostUnit is the number of tokens PseudoLabel's alpha is a price for:
// alpha is success given up per 1,000 reflection tokens.
const CostUnit = 1000

// PseudoLabel returns the subset a training example should be labelled
// with: a* = argmax_a [S(a) − α·cost(a)/CostUnit], where success[a] is the
// success of the next attempt after reflecting with subset a (a rate in
// [0, 1], or a mean over repeats) and cost[a] the reflection's tokens, so
// alpha is success given up per 1,000 tokens (α = 0.05 trades one point of
// success in 20 for 1,000 tokens). Ties go to the subset with fewer tools,
// then to the lower number, so that a free tool is not added for nothing.
// A subset whose score is NaN is never chosen unless all are.
func PseudoLabel(success [Subsets]float64, cost [Subsets]float64, alpha float64) Subset {
	best, bestScore := -1, math.Inf(-1)
	for a := range Subsets {
		s := success[a] - alpha*cost[a]/CostUnit
		if math.IsNaN(s) {
			continue
		}
		switch {
		case best < 0, s > bestScore:
			best, bestScore = a, s
		case s == bestScore && bits.OnesCount(uint(a)) < bits.OnesCount(uint(best)):
			best = a
		}
	}
	if best < 0 {
		return 0
	}
	return Subset(best)
}
