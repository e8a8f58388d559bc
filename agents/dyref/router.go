package dyref

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Router is the routing policy: a multilayer perceptron with one tanh
// hidden layer from a factor vector (standardised by the training set's
// mean and standard deviation) to a softmax over the subsets of its tools
// (the first Tools of AllTools: the paper's three, or all four), the
// probability that each is the failure's pseudo-label. Class k is
// Subset(k) whatever the tools, since they are a prefix of AllTools.
//
// A router that knows what each subset costs (WithCosts) routes by the
// pseudo-label's own objective, in expectation: it takes the subset a
// that maximises P(the label is a subset of a) − α·cost(a)/CostUnit,
// since reflecting with every tool the label needs, and more, does what
// the label does. Without costs it takes the most probable label. The
// difference matters when the factors leave the label in doubt: the most
// probable label is then often the cheap tool that fixes only some of the
// failures that look alike, where the expected objective adds the tool
// that covers the rest. It assumes that more tools never undo what fewer
// did, which holds on the whole (a plan keeps what each tool says) but
// not game by game.
//
// A Router is not changed after it is made, so one may serve many
// goroutines.
type Router struct {
	mean, std []float64  // per input
	w1        *mat.Dense // hidden × inputs
	b1        []float64  // hidden
	w2        *mat.Dense // classes × hidden
	b2        []float64  // classes, 1<<tools
	alpha     float64
	cost      []float64 // classes, mean reflection tokens; nil: route by the label
}

// WithCosts returns a copy of the router that routes by expected
// objective, with alpha as in PseudoLabel and cost[a] the mean reflection
// tokens of subset a; the subsets outside the router's tools are not
// read.
func (r *Router) WithCosts(alpha float64, cost [Subsets]float64) *Router {
	c := *r
	c.alpha, c.cost = alpha, slices.Clone(cost[:r.classes()])
	return &c
}

// Tools returns the subset of every tool the router chooses among.
func (r *Router) Tools() Subset { return Subset(r.classes() - 1) }

// classes is how many subsets the router scores.
func (r *Router) classes() int { return len(r.b2) }

// ID names the router by its weights: the first 12 hex digits of the
// SHA-256 of the file WriteTo writes. Records of runs with another router
// carry another ID.
func (r *Router) ID() string {
	var b bytes.Buffer
	r.WriteTo(&b) // a bytes.Buffer does not fail
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:6])
}

// Inputs returns how many features the router reads.
func (r *Router) Inputs() int { return len(r.mean) }

// Hidden returns the size of its hidden layer.
func (r *Router) Hidden() int { return len(r.b1) }

// Scores returns the probability the router gives each subset of its
// tools, indexed by the subset's number. It panics when x is not Inputs() long, as a caller
// that feeds a router another feature set than it learnt has a bug no
// answer would hide.
func (r *Router) Scores(x []float64) []float64 {
	if len(x) != r.Inputs() {
		panic(fmt.Sprintf("dyref: router reads %d features, given %d", r.Inputs(), len(x)))
	}
	z := make([]float64, len(x))
	for i, v := range x {
		z[i] = (v - r.mean[i]) / r.std[i]
	}
	var h mat.VecDense
	h.MulVec(r.w1, mat.NewVecDense(len(z), z))
	hidden := make([]float64, r.Hidden())
	for i := range hidden {
		hidden[i] = math.Tanh(h.AtVec(i) + r.b1[i])
	}
	var o mat.VecDense
	o.MulVec(r.w2, mat.NewVecDense(len(hidden), hidden))
	out := make([]float64, r.classes())
	for k := range out {
		out[k] = o.AtVec(k) + r.b2[k]
	}
	softmax(out)
	return out
}

// Label returns the subset of highest probability; a tie goes to the
// lower number.
func (r *Router) Label(x []float64) Subset {
	return Subset(argmax(r.Scores(x)))
}

// Route returns the subset to reflect with: Label for a router without
// costs, else the subset of highest expected objective (see Router); a
// tie goes to the lower number.
func (r *Router) Route(x []float64) Subset {
	return r.RouteWithin(x, func(Subset) bool { return true })
}

// RouteWithin is Route over the subsets ok allows; when it allows none,
// it returns all the router's tools.
func (r *Router) RouteWithin(x []float64, ok func(Subset) bool) Subset {
	p := r.Scores(x)
	n := Subset(r.classes())
	best, bestU := n-1, math.Inf(-1)
	for a := range n {
		if !ok(a) {
			continue
		}
		u := p[a]
		if r.cost != nil {
			u = 0
			for b := range n {
				if a&b == b {
					u += p[b]
				}
			}
			u -= r.alpha * r.cost[a] / CostUnit
		}
		if u > bestU {
			best, bestU = a, u
		}
	}
	return best
}

// Accuracy returns the share of examples whose label Label gives; 0 for
// none.
func (r *Router) Accuracy(examples []Example) float64 {
	if len(examples) == 0 {
		return 0
	}
	n := 0
	for _, e := range examples {
		if r.Label(e.X) == e.Label {
			n++
		}
	}
	return float64(n) / float64(len(examples))
}

func softmax(v []float64) {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	sum := 0.0
	for i, x := range v {
		v[i] = math.Exp(x - m)
		sum += v[i]
	}
	for i := range v {
		v[i] /= sum
	}
}

func argmax(v []float64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// The router file.
const (
	routerFormat  = "dyref-router"
	routerVersion = 1
	// Bounds that keep a hostile file from asking for huge matrices.
	maxInputs     = 4096
	maxHidden     = 4096
	maxRouterSize = 64 << 20
)

// Bounds on a router's numbers. Finite is not enough: a weight of 1e308
// (issue 33) overflows the first product it meets, and the router then
// routes by NaN, which every comparison loses, so that one subset wins
// whatever the game. Within these bounds no step of Scores or RouteWithin
// can overflow for any input up to 1e12 in size, far past any complexity
// factor (|z| ≤ 2e24, a hidden unit's sum ≤ 4096·2e30), and they are far
// beyond what
// training gives: the shipped weights are below 2 in size, the means
// below 20, the costs a few thousand tokens.
const (
	maxWeight = 1e6  // every weight and bias, in size
	maxMean   = 1e12 // an input's mean, in size
	minStd    = 1e-12
	maxStd    = 1e12
	// MaxAlpha bounds alpha, the success given up per CostUnit tokens
	// (train-router --alpha).
	MaxAlpha = 1e6
	maxCost  = 1e12 // mean reflection tokens of a subset
)

// WriteTo writes the router as JSON: a format name and version, the input
// width, the hidden size, the tool names in bit order, the inputs' mean
// and standard deviation, then w1 (hidden rows of inputs numbers), b1, w2
// (a row of hidden numbers per subset of the tools) and b2, each matrix flat in row order
// with a row a line. Numbers are printed shortest-exact (strconv 'g', -1),
// so they read back bit for bit and the same router always writes the same
// bytes.
func (r *Router) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"format\": %q,\n  \"version\": %d,\n  \"inputs\": %d,\n  \"hidden\": %d,\n",
		routerFormat, routerVersion, r.Inputs(), r.Hidden())
	var names []string
	for _, n := range toolNames(bits.Len(uint(r.Tools()))) {
		names = append(names, strconv.Quote(n))
	}
	fmt.Fprintf(&b, "  \"tools\": [%s],\n", strings.Join(names, ", "))
	writeRow := func(v []float64) {
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	}
	vector := func(name string, v []float64, last bool) {
		fmt.Fprintf(&b, "  %q: [", name)
		writeRow(v)
		b.WriteString("]")
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	matrix := func(name string, m *mat.Dense) {
		rows, _ := m.Dims()
		fmt.Fprintf(&b, "  %q: [\n", name)
		for i := range rows {
			b.WriteString("    ")
			writeRow(m.RawRowView(i))
			if i < rows-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("  ],\n")
	}
	if r.cost != nil {
		fmt.Fprintf(&b, "  \"alpha\": %s,\n", strconv.FormatFloat(r.alpha, 'g', -1, 64))
		vector("cost", r.cost, false)
	}
	vector("mean", r.mean, false)
	vector("std", r.std, false)
	matrix("w1", r.w1)
	vector("b1", r.b1, false)
	matrix("w2", r.w2)
	vector("b2", r.b2, true)
	b.WriteString("}\n")
	return b.WriteTo(w)
}

// routerFile is the router file as read; pointers and nil slices tell a
// missing field from a zero one.
type routerFile struct {
	Format  *string   `json:"format"`
	Version *int      `json:"version"`
	Inputs  *int      `json:"inputs"`
	Hidden  *int      `json:"hidden"`
	Tools   []string  `json:"tools"`
	Alpha   *float64  `json:"alpha"`
	Cost    []float64 `json:"cost"`
	Mean    []float64 `json:"mean"`
	Std     []float64 `json:"std"`
	W1      []float64 `json:"w1"`
	B1      []float64 `json:"b1"`
	W2      []float64 `json:"w2"`
	B2      []float64 `json:"b2"`
}

// ReadFactorRouter reads a router, as ReadRouter does, that dyref can
// route with: one that reads exactly the features of [Factors.Vector].
// A router of another width (trained on other features, or edited) is
// refused here, naming the file, rather than failing in the middle of a
// run.
func ReadFactorRouter(r io.Reader, name string) (*Router, error) {
	rt, err := ReadRouter(r, name)
	if err != nil {
		return nil, err
	}
	if want := len(VectorNames()); rt.Inputs() != want {
		return nil, fmt.Errorf("%s: inputs: want %d, the complexity factors (%s), have %d",
			name, want, strings.Join(VectorNames(), ", "), rt.Inputs())
	}
	return rt, nil
}

// ReadRouter reads a router that WriteTo wrote. name is the file's name,
// for errors, which say which field is wrong and how ("router.json: w1:
// want 16×19 numbers, have 12"); it rejects unknown fields and versions,
// shapes that do not agree, numbers that are not finite, and standard
// deviations that are not positive.
func ReadRouter(r io.Reader, name string) (*Router, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxRouterSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxRouterSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxRouterSize)
	}
	var f routerFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, jsonError(name, data, err)
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, fmt.Errorf("%s:%s: data after the router's closing brace", name, position(data, int64(len(data)-len(rest))))
	}
	fail := func(field, format string, args ...any) error {
		return fmt.Errorf("%s: %s: %s", name, field, fmt.Sprintf(format, args...))
	}
	switch {
	case f.Format == nil:
		return nil, fail("format", "missing; want %q", routerFormat)
	case *f.Format != routerFormat:
		return nil, fail("format", "want %q, have %q", routerFormat, *f.Format)
	case f.Version == nil:
		return nil, fail("version", "missing; want %d", routerVersion)
	case *f.Version != routerVersion:
		return nil, fail("version", "unknown version %d; this build reads version %d", *f.Version, routerVersion)
	case f.Inputs == nil:
		return nil, fail("inputs", "missing")
	case *f.Inputs < 1 || *f.Inputs > maxInputs:
		return nil, fail("inputs", "want 1 to %d, have %d", maxInputs, *f.Inputs)
	case f.Hidden == nil:
		return nil, fail("hidden", "missing")
	case *f.Hidden < 1 || *f.Hidden > maxHidden:
		return nil, fail("hidden", "want 1 to %d, have %d", maxHidden, *f.Hidden)
	case len(f.Tools) == 0 || len(f.Tools) > len(AllTools) || !slices.Equal(f.Tools, toolNames(len(f.Tools))):
		return nil, fail("tools", "want the first of %q, in order (the paper's three, or all four), have %q", toolNames(len(AllTools)), f.Tools)
	}
	in, hid, classes := *f.Inputs, *f.Hidden, 1<<len(f.Tools)
	for _, c := range []struct {
		field      string
		v          []float64
		rows, cols int
		matrix     bool
		bound      float64 // of the size of each number
	}{
		{"mean", f.Mean, 1, in, false, maxMean},
		{"std", f.Std, 1, in, false, math.MaxFloat64}, // bounded below
		{"w1", f.W1, hid, in, true, maxWeight},
		{"b1", f.B1, 1, hid, false, maxWeight},
		{"w2", f.W2, classes, hid, true, maxWeight},
		{"b2", f.B2, 1, classes, false, maxWeight},
	} {
		if len(c.v) != c.rows*c.cols {
			if !c.matrix {
				return nil, fail(c.field, "want %d numbers, have %d", c.cols, len(c.v))
			}
			return nil, fail(c.field, "want %d×%d numbers, have %d", c.rows, c.cols, len(c.v))
		}
		for i, x := range c.v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fail(fmt.Sprintf("%s[%d]", c.field, i), "not a finite number")
			}
			if math.Abs(x) > c.bound {
				return nil, fail(fmt.Sprintf("%s[%d]", c.field, i), "want a number from %s to %s, have %s (the bound that keeps the router's sums finite)",
					fmtFloat(-c.bound), fmtFloat(c.bound), fmtFloat(x))
			}
		}
	}
	for i, s := range f.Std {
		if !(s > 0) {
			return nil, fail(fmt.Sprintf("std[%d]", i), "want a positive number, have %s", strconv.FormatFloat(s, 'g', -1, 64))
		}
		if s < minStd || s > maxStd {
			return nil, fail(fmt.Sprintf("std[%d]", i), "want a number from %s to %s, have %s; training writes none outside it", fmtFloat(minStd), fmtFloat(maxStd), fmtFloat(s))
		}
	}
	var alpha float64
	switch {
	case (f.Alpha == nil) != (f.Cost == nil):
		return nil, fail("cost", "alpha and cost come together or not at all")
	case f.Cost != nil && len(f.Cost) != classes:
		return nil, fail("cost", "want %d numbers, have %d", classes, len(f.Cost))
	case f.Alpha != nil:
		alpha = *f.Alpha
		if !(alpha >= 0) || math.IsInf(alpha, 0) {
			return nil, fail("alpha", "want a finite number ≥ 0, have %s", strconv.FormatFloat(alpha, 'g', -1, 64))
		}
		if alpha > MaxAlpha {
			return nil, fail("alpha", "want a number from 0 to %s, have %s (the bound that keeps the router's sums finite)", fmtFloat(MaxAlpha), fmtFloat(alpha))
		}
		for i, c := range f.Cost {
			if !(c >= 0) || math.IsInf(c, 0) {
				return nil, fail(fmt.Sprintf("cost[%d]", i), "want a finite number ≥ 0, have %s", strconv.FormatFloat(c, 'g', -1, 64))
			}
			if c > maxCost {
				return nil, fail(fmt.Sprintf("cost[%d]", i), "want a number of tokens from 0 to %s, have %s (the bound that keeps the router's sums finite)", fmtFloat(maxCost), fmtFloat(c))
			}
		}
	}
	return &Router{
		alpha: alpha,
		cost:  f.Cost,
		mean:  f.Mean,
		std:   f.Std,
		w1:    mat.NewDense(hid, in, f.W1),
		b1:    f.B1,
		w2:    mat.NewDense(classes, hid, f.W2),
		b2:    f.B2,
	}, nil
}

// fmtFloat writes x shortest-exact, as WriteTo does.
func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// jsonError says where in the file decoding failed, and on what.
func jsonError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset counts the byte that was wrong; point at it. A NaN or
		// an infinity, which JSON cannot hold, is said to be one.
		at := min(max(syn.Offset-1, 0), int64(len(data)))
		for _, w := range []string{"+Infinity", "-Infinity", "Infinity", "+Inf", "-Inf", "Inf", "NaN"} {
			if bytes.HasPrefix(data[at:], []byte(w)) {
				return fmt.Errorf("%s:%s: %v (%s is not a JSON number, and a router's numbers are finite)", name, position(data, at), syn, w)
			}
		}
		return fmt.Errorf("%s:%s: %v", name, position(data, syn.Offset-1), syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "(top level)"
		}
		// Offset is the end of the value.
		return fmt.Errorf("%s:%s: %s: want %s, have JSON %s", name, position(data, typ.Offset), field, typ.Type, typ.Value)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s: empty; want a router object", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: cut short", name)
	}
	// DisallowUnknownFields reports `json: unknown field "x"`, without a
	// position.
	return fmt.Errorf("%s: %v", name, err)
}

// position turns a byte offset into "line:column", both from 1, the
// column in bytes.
func position(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d", line, col)
}
