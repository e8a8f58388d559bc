package dyref

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSubsetNames(t *testing.T) {
	t.Parallel()
	want := map[Subset]string{0: "none", 1: "key_rules", 5: "key_rules+lesson", 10: "experience+ambiguity", 15: "key_rules+experience+lesson+ambiguity"}
	for s := range Subset(Subsets) {
		name := s.String()
		if w, ok := want[s]; ok && name != w {
			t.Errorf("subset %d prints %q, want %q", s, name, w)
		}
		back, err := ParseSubset(name)
		if err != nil || back != s {
			t.Errorf("ParseSubset(%q) = %d, %v; want %d", name, back, err, s)
		}
		if len(s.Tools()) != s.Len() {
			t.Errorf("subset %d: %d tools, Len %d", s, len(s.Tools()), s.Len())
		}
		for _, tool := range AllTools {
			if s.Has(tool) != strings.Contains(name, tool.Name()) {
				t.Errorf("subset %q: Has(%s) = %v", name, tool.Name(), s.Has(tool))
			}
		}
	}
	if s, err := ParseSubset(" lesson + key_rules "); err != nil || s != Subset(KeyRules|Lesson) {
		t.Errorf("names in another order, with spaces: %v, %v", s, err)
	}
	if got := Subset(16).String(); got != "subset(16)" {
		t.Errorf("out of range subset prints %q", got)
	}
}

func TestParseSubsetErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"plan", `unknown tool "plan"`},
		{"lesson+lesson", "lesson named twice"},
		{"lesson+", `unknown tool ""`},
		{"none+lesson", `unknown tool "none"`},
	} {
		_, err := ParseSubset(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSubset(%q): error %v, want one saying %q", c.in, err, c.want)
		}
	}
}

// separable draws n examples of width 3+StructureDims whose label has bit
// i set when feature i+1 is positive, each kept at least 0.3 from zero, so
// that a linear layer can tell all sixteen classes apart.
func separable(n int, seed uint64) []Example {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]Example, n)
	for k := range out {
		x := make([]float64, 3+StructureDims)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		var label Subset
		for i := range len(AllTools) {
			v := x[i+1]
			if math.Abs(v) < 0.3 {
				v = math.Copysign(0.3, v)
			}
			x[i+1] = 4 + 2*v // offset and scale, so that standardising matters
			if v > 0 {
				label |= 1 << i
			}
		}
		out[k] = Example{X: x, Label: label}
	}
	return out
}

// fourTools are the default options over all four tools, which the
// sixteen classes of separable need.
func fourTools() TrainOptions {
	o := DefaultTrainOptions()
	o.Tools = len(AllTools)
	return o
}

func trainedRouter(t testing.TB) *Router {
	t.Helper()
	r, err := Train(separable(400, 1), fourTools())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func routerBytes(t testing.TB, r *Router) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := r.WriteTo(&b)
	if err != nil || n != int64(b.Len()) {
		t.Fatalf("WriteTo: %d bytes reported, %d written, %v", n, b.Len(), err)
	}
	return b.Bytes()
}

func TestTrainSeparable(t *testing.T) {
	t.Parallel()
	r := trainedRouter(t)
	if acc := r.Accuracy(separable(400, 1)); acc < 0.95 {
		t.Errorf("training accuracy %.3f, want ≥ 0.95", acc)
	}
	if acc := r.Accuracy(separable(400, 2)); acc < 0.95 {
		t.Errorf("held-out accuracy %.3f, want ≥ 0.95", acc)
	}
	x := separable(1, 3)[0].X
	s := r.Scores(x)
	sum := 0.0
	for _, p := range s {
		if p < 0 || p > 1 {
			t.Errorf("score %v outside [0, 1]", p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 || len(s) != Subsets {
		t.Errorf("%d scores summing to %v", len(s), sum)
	}
	if got := r.Route(x); s[got] < s[argmax(s)] {
		t.Errorf("Route chose %v, not the highest score", got)
	}
}

func TestTrainDeterministic(t *testing.T) {
	t.Parallel()
	a := routerBytes(t, trainedRouter(t))
	b := routerBytes(t, trainedRouter(t))
	if !bytes.Equal(a, b) {
		t.Fatal("training twice gave different routers")
	}
	opts := fourTools()
	opts.Seed = 2
	r, err := Train(separable(400, 1), opts)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, routerBytes(t, r)) {
		t.Error("another seed gave the same router: the seed is not used")
	}
}

func TestRouterRoundTrip(t *testing.T) {
	t.Parallel()
	r := trainedRouter(t)
	data := routerBytes(t, r)
	back, err := ReadRouter(bytes.NewReader(data), "router.json")
	if err != nil {
		t.Fatal(err)
	}
	if again := routerBytes(t, back); !bytes.Equal(data, again) {
		t.Errorf("read and written again, the file changed:\n%s\n---\n%s", data, again)
	}
	for _, e := range separable(50, 9) {
		a, b := r.Scores(e.X), back.Scores(e.X)
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("scores differ after a round trip: %v vs %v", a, b)
			}
		}
	}
	if back.Inputs() != 3+StructureDims || back.Hidden() != DefaultTrainOptions().Hidden {
		t.Errorf("read back %d inputs, %d hidden", back.Inputs(), back.Hidden())
	}
}

// tinyRouter is a router file small enough to edit in a table: 2 inputs, 1
// hidden unit.
const tinyRouter = `{
  "format": "dyref-router",
  "version": 1,
  "inputs": 2,
  "hidden": 1,
  "tools": ["key_rules", "experience", "lesson", "ambiguity"],
  "mean": [0, 1],
  "std": [1, 2],
  "w1": [
    0.5, -0.25
  ],
  "b1": [0],
  "w2": [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
  ],
  "b2": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
}
`

func TestReadRouterMalformed(t *testing.T) {
	t.Parallel()
	if _, err := ReadRouter(strings.NewReader(tinyRouter), "router.json"); err != nil {
		t.Fatalf("the table's base file does not read: %v", err)
	}
	// Positions are line:column; a type error points just past the value.
	for _, c := range []struct {
		why, old, new, want string
	}{
		{"w1 of the wrong size", `0.5, -0.25`, `0.5`, "router.json: w1: want 1×2 numbers, have 1"},
		{"w2 of the wrong size", `15, 16`, `15`, "router.json: w2: want 16×1 numbers, have 15"},
		{"mean of the wrong size", `"mean": [0, 1]`, `"mean": [0]`, "router.json: mean: want 2 numbers, have 1"},
		{"b2 missing", `,
  "b2": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]`, ``, "router.json: b2: want 16 numbers, have 0"},
		{"a version from the future", `"version": 1`, `"version": 2`, "router.json: version: unknown version 2"},
		{"no version", `"version": 1,`, ``, "router.json: version: missing"},
		{"another file format", `"dyref-router"`, `"other"`, `router.json: format: want "dyref-router", have "other"`},
		{"tools in another order", `"key_rules", "experience"`, `"experience", "key_rules"`, "router.json: tools: want"},
		{"a zero standard deviation", `"std": [1, 2]`, `"std": [1, 0]`, "router.json: std[1]: want a positive number, have 0"},
		{"a negative hidden size", `"hidden": 1`, `"hidden": -1`, "router.json: hidden: want 1 to 4096, have -1"},
		{"inputs too many to allocate", `"inputs": 2`, `"inputs": 1000000000`, "router.json: inputs: want 1 to 4096"},
		{"NaN is not JSON", `"b1": [0]`, `"b1": [NaN]`, "router.json:12:10: invalid character 'N'"},
		{"a number too large for float64", `"b1": [0]`, `"b1": [1e999]`, "router.json:12:15: b1: want float64, have JSON number 1e999"},
		{"a string for a number", `"b1": [0]`, `"b1": ["0"]`, "router.json:12:13: b1: want float64, have JSON string"},
		{"an unknown field", `"version": 1,`, `"version": 1, "bias": 3,`, `router.json: json: unknown field "bias"`},
		{"data after the object", "}\n", "}\n{}", "router.json:18:1: data after the router's closing brace"},
		{"cut short", "}\n", "", "router.json: cut short"},
		{"a weight of 1e308 is finite, and overflowed the first product it met, so the router routed by NaN (issue 33)", `0.5, -0.25`, `1e308, -0.25`,
			"router.json: w1[0]: want a number from -1e+06 to 1e+06, have 1e+308"},
		{"a bias past the bound, negative", `"b1": [0]`, `"b1": [-2e6]`, "router.json: b1[0]: want a number from -1e+06 to 1e+06, have -2e+06"},
		{"a mean past its bound", `"mean": [0, 1]`, `"mean": [0, 1e300]`, "router.json: mean[1]: want a number from -1e+12 to 1e+12"},
		{"a standard deviation so small that z overflows", `"std": [1, 2]`, `"std": [1, 1e-308]`, "router.json: std[1]: want a number from 1e-12 to 1e+12, have 1e-308"},
		{"a standard deviation past its bound", `"std": [1, 2]`, `"std": [1, 1e200]`, "router.json: std[1]: want a number from 1e-12 to 1e+12"},
		{"NaN is named as what JSON cannot hold", `"b1": [0]`, `"b1": [NaN]`, "router.json:12:10: invalid character 'N' looking for beginning of value (NaN is not a JSON number"},
		{"an infinity likewise", `"b1": [0]`, `"b1": [-Infinity]`, "(Infinity is not a JSON number"},
	} {
		in := strings.Replace(tinyRouter, c.old, c.new, 1)
		if in == tinyRouter {
			t.Fatalf("%s: %q is not in the base file", c.why, c.old)
		}
		_, err := ReadRouter(strings.NewReader(in), "router.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.why, err, c.want)
		}
	}
	if _, err := ReadRouter(strings.NewReader(""), "r.json"); err == nil || err.Error() != "r.json: empty; want a router object" {
		t.Errorf("empty file: %v", err)
	}
}

func TestTrainErrors(t *testing.T) {
	t.Parallel()
	good := separable(10, 1)
	ragged := append(separable(3, 1), Example{X: []float64{1, 2}})
	nan := separable(3, 1)
	nan[1].X[4] = math.NaN()
	wrong := separable(3, 1)
	wrong[2].Label = 16
	opts := func(f func(*TrainOptions)) TrainOptions {
		o := fourTools()
		f(&o)
		return o
	}
	for _, c := range []struct {
		why  string
		ex   []Example
		opts TrainOptions
		want string
	}{
		{"no examples", nil, fourTools(), "dyref: train: no examples"},
		{"inconsistent widths", ragged, fourTools(), "example 3 has 2 features, example 0 has 19"},
		{"a width of zero", []Example{{}}, fourTools(), "example 0 has 0 features"},
		{"a feature that is not a number", nan, fourTools(), "example 1: feature 4 is NaN"},
		{"a label that is no subset", wrong, fourTools(), "example 2: label 16 is not a subset"},
		{"zero options", good, TrainOptions{}, "Hidden: want 1 to 4096, have 0 (see DefaultTrainOptions)"},
		{"no epochs", good, opts(func(o *TrainOptions) { o.Epochs = 0 }), "Epochs: want at least 1"},
		{"a NaN learning rate", good, opts(func(o *TrainOptions) { o.LearningRate = math.NaN() }), "LearningRate: want a finite positive number"},
		{"a negative L2", good, opts(func(o *TrainOptions) { o.L2 = -1 }), "L2: want a finite number ≥ 0"},
		{"five tools", good, opts(func(o *TrainOptions) { o.Tools = 5 }), "Tools: want 1 to 4, have 5"},
		{"a label with ambiguity, for the paper's tools", good, DefaultTrainOptions(), "label 8 is not a subset of the 3 tools (0 to 7)"},
	} {
		_, err := Train(c.ex, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.why, err, c.want)
		}
	}
}

func TestRoutePanicsOnWidth(t *testing.T) {
	t.Parallel()
	r, err := ReadRouter(strings.NewReader(tinyRouter), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "reads 2 features, given 3") {
			t.Errorf("panic %v", p)
		}
	}()
	r.Route([]float64{1, 2, 3})
}

func TestTinyRouterScores(t *testing.T) {
	t.Parallel()
	// The input standardises to (1, 1); the hidden unit is
	// tanh(0.5 − 0.25) and logit k is (k+1)·tanh(0.25): the last subset
	// has the highest score.
	r, err := ReadRouter(strings.NewReader(tinyRouter), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	s := r.Scores([]float64{1, 3})
	h := math.Tanh(0.25)
	den := 0.0
	for k := range Subsets {
		den += math.Exp(float64(k+1) * h)
	}
	for k, p := range s {
		if want := math.Exp(float64(k+1)*h) / den; math.Abs(p-want) > 1e-12 {
			t.Errorf("score %d: %v, want %v", k, p, want)
		}
	}
	if got := r.Route([]float64{1, 3}); got != Subsets-1 {
		t.Errorf("Route = %v", got)
	}
}

func TestPseudoLabel(t *testing.T) {
	t.Parallel()
	flat := func(v float64) (a [Subsets]float64) {
		for i := range a {
			a[i] = v
		}
		return a
	}
	with := func(a [Subsets]float64, kv ...float64) [Subsets]float64 {
		for i := 0; i < len(kv); i += 2 {
			a[int(kv[i])] = kv[i+1]
		}
		return a
	}
	lesson, keyLesson := float64(Lesson), float64(KeyRules|Lesson)
	for _, c := range []struct {
		why     string
		success [Subsets]float64
		cost    [Subsets]float64
		alpha   float64
		want    Subset
	}{
		{"the only subset that succeeds", with(flat(0), keyLesson, 1), flat(500), 0.05, Subset(KeyRules | Lesson)},
		{"free tokens: the best success wins", with(flat(0.5), 15, 0.9, lesson, 0.8), with(flat(0), 15, 4000), 0, Subset(15)},
		{"costly tokens: one point of success is not worth 3,000 tokens at α = 0.05", with(flat(0.5), 15, 0.9, lesson, 0.8), with(flat(0), 15, 4000, lesson, 1000), 0.05, Subset(Lesson)},
		{"a tie goes to fewer tools", with(flat(0), 3, 1, 4, 1), flat(0), 0, Subset(4)},
		{"a tie of equal size goes to the lower number", with(flat(0), 6, 1, 3, 1), flat(0), 0, Subset(3)},
		{"everything equal: no reflection", flat(1), flat(0), 0.1, 0},
		{"a NaN success is passed over", with(flat(0), 0, math.NaN(), 8, 0.5), flat(0), 0, Subset(8)},
		{"all NaN: none", flat(math.NaN()), flat(0), 0, 0},
	} {
		if got := PseudoLabel(c.success, c.cost, c.alpha); got != c.want {
			t.Errorf("%s: %v, want %v", c.why, got, c.want)
		}
	}
}

// twoLabels is a router whose softmax splits evenly between experience
// (2) and lesson (4), whatever the input: what a router says of a failure
// its factors cannot place.
const twoLabels = `{
  "format": "dyref-router",
  "version": 1,
  "inputs": 2,
  "hidden": 1,
  "tools": ["key_rules", "experience", "lesson", "ambiguity"],
  "mean": [0, 0],
  "std": [1, 1],
  "w1": [
    0, 0
  ],
  "b1": [0],
  "w2": [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
  ],
  "b2": [-40, -40, 0, -40, 0, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40]
}
`

// With costs the router takes the subset of highest expected objective:
// the union of two equally likely labels when tokens are cheap, no
// reflection when they are dear; without costs, the more probable label.
func TestRouteByExpectedObjective(t *testing.T) {
	t.Parallel()
	var cost [Subsets]float64
	for a := range Subsets {
		cost[a] = 5000
	}
	cost[0], cost[Experience], cost[Lesson], cost[Experience|Lesson] = 0, 1000, 1200, 2000
	x := []float64{0.3, -2}
	for _, c := range []struct {
		why   string
		costs bool
		alpha float64
		want  Subset
	}{
		{"no costs: the most probable label, the lower on a tie", false, 0, Subset(Experience)},
		{"cheap tokens: both tools, since either label may be the one", true, 0.1, Subset(Experience | Lesson)},
		{"dear tokens: no reflection beats half a chance", true, 1, 0},
	} {
		r, err := ReadRouter(strings.NewReader(twoLabels), "two.json")
		if err != nil {
			t.Fatal(err)
		}
		if c.costs {
			before := r.ID()
			r = r.WithCosts(c.alpha, cost)
			if r.ID() == before {
				t.Errorf("%s: the router with costs has the ID of the one without", c.why)
			}
		}
		if got := r.Route(x); got != c.want {
			t.Errorf("%s: Route = %v, want %v", c.why, got, c.want)
		}
		if got := r.Label(x); got != Subset(Experience) {
			t.Errorf("%s: Label = %v", c.why, got)
		}
		// Within the subsets that add a tool to experience, the best.
		within := r.RouteWithin(x, func(a Subset) bool { return a.Has(Experience) && a != Subset(Experience) })
		if !within.Has(Experience) || within == Subset(Experience) {
			t.Errorf("%s: RouteWithin supersets of experience = %v", c.why, within)
		}
		if got := r.RouteWithin(x, func(Subset) bool { return false }); got != Subsets-1 {
			t.Errorf("%s: RouteWithin nothing = %v, want every tool", c.why, got)
		}
		// The costs survive the file.
		back, err := ReadRouter(bytes.NewReader(routerBytes(t, r)), "two.json")
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Route(x); got != c.want {
			t.Errorf("%s: read back, Route = %v, want %v", c.why, got, c.want)
		}
	}
	costs := `"alpha": 0.1,
  "cost": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  "mean"`
	for _, c := range []struct{ why, in, want string }{
		{"alpha without cost", `"alpha": 0.1, "mean"`, "two.json: cost: alpha and cost come together or not at all"},
		{"cost of the wrong size", `"alpha": 0.1, "cost": [1, 2], "mean"`, "two.json: cost: want 16 numbers, have 2"},
		{"a negative alpha", strings.Replace(costs, "0.1", "-1", 1), "two.json: alpha: want a finite number ≥ 0, have -1"},
		{"a negative cost", strings.Replace(costs, "[0, 1,", "[0, -1,", 1), "two.json: cost[1]: want a finite number ≥ 0, have -1"},
		{"an alpha of 1e308 times a cost of thousands of tokens is an infinity: every subset but the free one scored -Inf (issue 33)", strings.Replace(costs, "0.1", "1e308", 1), "two.json: alpha: want a number from 0 to 1e+06, have 1e+308"},
		{"a cost of 1e308 tokens", strings.Replace(costs, "[0, 1,", "[0, 1e308,", 1), "two.json: cost[1]: want a number of tokens from 0 to 1e+12, have 1e+308"},
	} {
		in := strings.Replace(twoLabels, `"mean"`, c.in, 1)
		if _, err := ReadRouter(strings.NewReader(in), "two.json"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.why, err, c.want)
		}
	}
}

func TestReadFactorRouter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, why, data, wantErr string
	}{
		{"shipped", "the router the build embeds reads the factors", string(routerJSON), ""},
		{"too narrow", "a router of two inputs cannot read the 19 factors", tinyRouter,
			"tiny.json: inputs: want 19, the complexity factors (dependency, interaction, spatial, "},
		{"malformed", "ReadRouter's own checks still apply", "{}", "tiny.json: format: missing"},
	}
	for _, tc := range tests {
		r, err := ReadFactorRouter(strings.NewReader(tc.data), "tiny.json")
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%s (%s): %v", tc.name, tc.why, err)
			} else {
				r.Route(Factors{}.Vector()) // must not panic
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s (%s): error %v, want %q", tc.name, tc.why, err, tc.wantErr)
		}
	}
}

// A router over the paper's three tools scores their eight subsets, never
// routes to the ambiguity tool, and says so in its file; a file whose
// tools are not the first of AllTools is refused, since its classes would
// not be Subset numbers.
func TestPaperToolsRouter(t *testing.T) {
	t.Parallel()
	ex := separable(400, 1)
	for i := range ex {
		ex[i].Label &= FirstTools(PaperTools)
	}
	r, err := Train(ex, DefaultTrainOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Tools() != Subset(KeyRules|Experience|Lesson) {
		t.Errorf("Tools = %v", r.Tools())
	}
	var cost [Subsets]float64
	r = r.WithCosts(0.1, cost)
	for _, e := range separable(50, 2) {
		if n := len(r.Scores(e.X)); n != 8 {
			t.Fatalf("%d scores, want 8", n)
		}
		if a := r.Route(e.X); a.Has(Ambiguity) {
			t.Errorf("routed to %v", a)
		}
	}
	if got := r.RouteWithin(ex[0].X, func(Subset) bool { return false }); got != r.Tools() {
		t.Errorf("RouteWithin nothing = %v, want the router's tools", got)
	}
	data := routerBytes(t, r)
	if !bytes.Contains(data, []byte(`"tools": ["key_rules", "experience", "lesson"],`)) {
		t.Errorf("the file does not name the three tools:\n%.200s", data)
	}
	back, err := ReadRouter(bytes.NewReader(data), "three.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(routerBytes(t, back), data) {
		t.Error("read back, the router writes other bytes")
	}
	for _, tools := range []string{`[]`, `["experience", "lesson"]`, `["key_rules", "experience", "lesson", "ambiguity", "plan"]`} {
		bad := bytes.Replace(data, []byte(`["key_rules", "experience", "lesson"]`), []byte(tools), 1)
		if _, err := ReadRouter(bytes.NewReader(bad), "three.json"); err == nil || !strings.Contains(err.Error(), "three.json: tools: want the first of") {
			t.Errorf("tools %s: error %v", tools, err)
		}
	}
}
