package tabletop

import (
	"strings"
	"testing"
)

// With the perfect simulated model, inner-monologue is perfect in every
// cell: the prompts carry what the model needs, each move's feedback
// reads as a success when it is one (a false "Success: no" would send
// the model into retries until the turn limit), and the partner robot
// answers through Respond.
func TestInnerMonologueWithPerfectModel(t *testing.T) {
	t.Parallel()
	cells := runWorkflowOn(t, "inner-monologue", "sim:perfect", 30, clearAndAmbiguous)
	if len(cells) < len(clearAndAmbiguous) {
		t.Fatalf("%d cells, want one per family and perturbation", len(cells))
	}
	for key, c := range cells {
		if c.ADA.Value() != 1 || c.SR.Value() != 1 || c.Errors != 0 {
			t.Errorf("%s: ADA %.2f SR %.2f errors %d, want 1, 1, 0", key, c.ADA.Value(), c.SR.Value(), c.Errors)
		}
	}
}

// The default simulated model errs: clear episodes still mostly succeed,
// but some cell falls short of perfect.
func TestInnerMonologueDefaultSim(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	cells := runWorkflowOn(t, "inner-monologue", "sim", 100, clearAndAmbiguous)
	imperfect := false
	for key, c := range cells {
		if strings.HasSuffix(key, "/none") && c.SR.Value() <= 0.5 {
			t.Errorf("%s: SR %.2f, want above 0.5", key, c.SR.Value())
		}
		if c.SR.Value() < 1 {
			imperfect = true
		}
	}
	if !imperfect {
		t.Error("SR 1.0 in every cell; the default profile's errors do not show")
	}
}

// Under execution noise a move can miss without the table saying so.
// Inner-monologue sees the miss in its feedback and retries; direct
// declares done on a table that does not hold the goal. With the perfect
// model the gap is execution alone.
func TestInnerMonologueRecoversFromExecutionNoise(t *testing.T) {
	t.Parallel()
	noise := []string{"execution_noise"}
	im := runWorkflowOn(t, "inner-monologue", "sim:perfect", 50, noise)
	direct := runWorkflowOn(t, "direct", "sim:perfect", 50, noise)
	if len(im) == 0 {
		t.Fatal("no execution_noise cells")
	}
	var imOK, imN, dOK, dN int
	for key, c := range im {
		d := direct[key]
		imOK, imN = imOK+c.SR.K, imN+c.SR.N
		dOK, dN = dOK+d.SR.K, dN+d.SR.N
		if c.SR.Value() < d.SR.Value() {
			t.Errorf("%s: inner-monologue SR %.2f below direct's %.2f", key, c.SR.Value(), d.SR.Value())
		}
	}
	imSR, dSR := float64(imOK)/float64(imN), float64(dOK)/float64(dN)
	t.Logf("execution_noise, sim:perfect: inner-monologue SR %.3f (n=%d), direct SR %.3f (n=%d)", imSR, imN, dSR, dN)
	if !(dSR < 1 && imSR > dSR) {
		t.Errorf("pooled SR: inner-monologue %.3f, direct %.3f; want direct hurt by the noise and inner-monologue above it", imSR, dSR)
	}
}
