package dyref

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/housework"
)

func FuzzReadRouter(f *testing.F) {
	f.Add([]byte(tinyRouter))
	// A trained router as seed, kept small: the fuzzer minimises each new
	// input it finds, which is slow on long files.
	r, err := Train([]Example{{X: []float64{0, 1}, Label: 3}, {X: []float64{1, 0.5}, Label: 12}}, TrainOptions{Hidden: 1, Epochs: 5, LearningRate: 0.01, Seed: 1, Tools: len(AllTools)})
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	r.WriteTo(&b)
	f.Add(b.Bytes())
	for _, s := range []string{
		"", "{}", "null", "[]", `{"format": "dyref-router", "version": 1}`,
		strings.Replace(tinyRouter, `"hidden": 1`, `"hidden": 0`, 1),
		strings.Replace(tinyRouter, `"std": [1, 2]`, `"std": [1, -0]`, 1),
		strings.Replace(tinyRouter, `0.5, -0.25`, `5e-324, -1.7976931348623157e308`, 1),
		strings.Replace(tinyRouter, `"inputs": 2`, `"inputs": 4294967296`, 1),
		strings.Replace(tinyRouter, `0.5, -0.25`, `1e6, -1e6`, 1),
		strings.Replace(tinyRouter, `"std": [1, 2]`, `"std": [1e-12, 2]`, 1),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadRouter(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		var w1 bytes.Buffer
		if _, err := r.WriteTo(&w1); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRouter(bytes.NewReader(w1.Bytes()), "again.json")
		if err != nil {
			t.Fatalf("accepted, written, and then refused: %v\n%s", err, w1.Bytes())
		}
		var w2 bytes.Buffer
		back.WriteTo(&w2)
		if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("a second round trip changed the file:\n%s\n---\n%s", w1.Bytes(), w2.Bytes())
		}
		x := make([]float64, r.Inputs())
		if got, want := back.Route(x), r.Route(x); got != want {
			t.Errorf("routes %v after a round trip, %v before", got, want)
		}
		// Whatever an accepted file holds, the router's scores are
		// probabilities, at zero and at inputs far larger than any
		// complexity factor: a router that overflows routes by NaN.
		for _, v := range []float64{0, 1e3, -1e3} {
			for i := range x {
				x[i] = v
			}
			for k, p := range r.Scores(x) {
				if !(p >= 0 && p <= 1) {
					t.Fatalf("input %g: score %d is %v", v, k, p)
				}
			}
		}
	})
}

func FuzzBuild(f *testing.F) {
	heat := byName("pick_heat_then_place")
	look := byName("look_at_obj_in_light")
	f.Add(heat.instruction, heat.room, heat.turns[3].Command, heat.turns[3].Observation, "")
	f.Add(look.instruction, look.room, look.turns[11].Command, look.turns[11].Observation, "")
	f.Add("find two things of one kind and put them in drawer.", look.room, "", "", "underspecified")
	f.Add("put the hot egg in fridge.", "", "take egg 1 from", "You pick up the egg 1 from the .", "multiplicity")
	f.Add("examine something with the floorlamp.", "You arrive at loc 1.", "use floorlamp 1 ×2", "You turn on the floorlamp 1.", "")
	f.Add("", "Your task is to: put two pen in drawer.", "think: think", "OK.", "")
	f.Fuzz(func(t *testing.T, instruction, opening, command, observation, tag string) {
		turns := []housework.Turn{
			{Command: command, Observation: observation},
			{Tag: tag, Question: "Which?", Answer: observation},
			{Command: command, Observation: observation},
		}
		g, err := Build(housework.State{Instruction: instruction, Opening: opening, Turns: turns})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dyref: build: ") {
				t.Errorf("error %q does not say where it came from", err)
			}
			return
		}
		if len(g.Nodes) == 0 || g.Nodes[0].Kind != NodeGoal {
			t.Fatalf("no goal first:\n%s", g)
		}
		for i, e := range g.Edges {
			if !g.valid(e) {
				t.Fatalf("edge %d %+v out of range", i, e)
			}
		}
		fa := g.Factors()
		sum := 0.0
		for _, v := range fa.Structure {
			sum += v
		}
		if sum < 0.999999 || sum > 1.000001 {
			t.Errorf("structure sums to %v", sum)
		}
		if fa.Dependency < 1 || fa.Dependency > float64(len(g.Edges)) {
			t.Errorf("dependency %v with %d edges", fa.Dependency, len(g.Edges))
		}
	})
}

func FuzzParseSubset(f *testing.F) {
	for _, s := range []string{"none", "", "key_rules+lesson", "lesson+lesson", "ambiguity + experience", "+", "plan"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sub, err := ParseSubset(s)
		if err != nil {
			return
		}
		if sub >= Subsets {
			t.Fatalf("%q parsed to %d", s, sub)
		}
		if back, err := ParseSubset(sub.String()); err != nil || back != sub {
			t.Errorf("%q → %v → %v, %v", s, sub, back, err)
		}
	})
}

// FuzzReadFactorRouter: whatever the file, a router ReadFactorRouter
// accepts routes any factor vector without a panic.
func FuzzReadFactorRouter(f *testing.F) {
	f.Add([]byte(tinyRouter))
	f.Add(routerJSON)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadFactorRouter(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		r.Route(Factors{Dependency: 2, Interaction: 3, Spatial: 1}.Vector())
	})
}
