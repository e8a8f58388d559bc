package tabletop

import (
	"context"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results/stats"
)

// TestSeeingMatchesTheDetector plays every workflow that can see (SG-CoT,
// its ablations and its baselines: CLARA, Inner Monologue, ProgPrompt) on
// sim:perfect through the camera image and through the detector's list,
// on every family and every perturbation without noise, two-robot cells
// included, and wants 1.0 seeing wherever the detector's list gets 1.0
// (ADA and SR apart): the detection call, the scene-graph call with the
// image, grounding by geometry, the user's answers by place, the robots'
// messages by description and looking again after the other robot acts
// lose nothing; nor do the baselines' looks, the names they keep from one
// look to the next, Inner Monologue's feedback from a new image and
// ProgPrompt's assertions. Seeing may do better: a person's answer by place is
// resolved by looking at the image, which an ablation without edges
// cannot do through its graph.
func TestSeeingMatchesTheDetector(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	// Every workflow that can see: SG-CoT and its ablations, and the
	// baselines, which see the same table (issue 30).
	var seers []string
	for _, a := range agents.NamesFor(agents.TrackTabletop) {
		if info, _ := agents.Lookup(a); info.ShowsImages {
			seers = append(seers, a)
		}
	}
	if len(seers) < 7 {
		t.Fatalf("the workflows that see: %v; want SG-CoT, its three ablations and the three baselines", seers)
	}
	play := func(perception string) map[string]stats.Cell {
		m, err := models.Open("sim:perfect", nil)
		if err != nil {
			t.Fatal(err)
		}
		track := New()
		track.Perception = perception
		opts := bench.Options{Track: track, Seed: 1, Model: m, Agents: seers,
			Perturbations: []string{"none", "absence", "multiplicity", "underspecified", "partial_observability"}, Episodes: 12, Concurrency: 2}
		recs, err := bench.Run(context.Background(), opts, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if want := map[string]string{agents.PerceptionImage: agents.PerceptionImage}[perception]; r.Perception != want {
				t.Fatalf("%s: record's perception %q, want %q", r.Agent, r.Perception, want)
			}
		}
		out := map[string]stats.Cell{}
		for _, c := range stats.Aggregate(recs, stats.AggregateOptions{ByFamily: true}) {
			out[c.Agent+" "+c.Family+"/"+c.Perturbation] = c
		}
		return out
	}
	seeing, listed := play(agents.PerceptionImage), play(agents.PerceptionDetector)
	if len(seeing) == 0 || len(seeing) != len(listed) {
		t.Fatalf("%d cells seeing, %d with the detector", len(seeing), len(listed))
	}
	for key, s := range seeing {
		d := listed[key]
		if d.ADA.Value() == 1 && s.ADA.Value() != 1 || d.SR.Value() == 1 && s.SR.Value() != 1 || s.Errors != 0 {
			t.Errorf("%s: seeing ADA %.2f SR %.2f (errors %d), with the detector ADA %.2f SR %.2f", key, s.ADA.Value(), s.SR.Value(), s.Errors, d.ADA.Value(), d.SR.Value())
		}
		// The method and the baselines read the whole table; only the
		// ablations miss what they cannot read by construction.
		if !strings.HasPrefix(s.Agent, "sgcot-") && s.SR.Value() != 1 {
			t.Errorf("%s: %s seeing SR %.2f, want 1", key, s.Agent, s.SR.Value())
		}
	}
}

// TestPerceptionSettings: a run that sees records its perception and its
// camera in run.json's settings; a run with the detector records neither,
// so its run.json reads as every run's before the option existed.
func TestPerceptionSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		perception string
		want       map[string]string
	}{
		{agents.PerceptionDetector, map[string]string{"perception": "", "camera": ""}},
		// The default is the image, as the papers ran every workflow that
		// perceives, now that the baselines see it too (issue 30).
		{"", map[string]string{"perception": "image",
			"camera": `{"width":640,"height":480,"view":"perspective","eye":[0,-1.05,0.8],"target":[0,-0.5,0],"fov_y":40,"ortho_height":0.7}`}},
		{agents.PerceptionImage, map[string]string{"perception": "image",
			"camera": `{"width":640,"height":480,"view":"perspective","eye":[0,-1.05,0.8],"target":[0,-0.5,0],"fov_y":40,"ortho_height":0.7}`}},
	} {
		track := New()
		track.Perception = tc.perception
		s, err := track.Settings()
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.want {
			if s[k] != v {
				t.Errorf("perception %q: setting %s = %q, want %q", tc.perception, k, s[k], v)
			}
		}
	}
}
