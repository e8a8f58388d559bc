package tabletop

import (
	"bytes"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/scenes/camera"
)

// TestCameraImageIsTheOpeningView: a robot's camera at the first step is
// the image Views renders of the episode (same digest, same bytes), and a
// move on the table makes another image.
func TestCameraImageIsTheOpeningView(t *testing.T) {
	t.Parallel()
	const family, perturbation, index = "pick_place", "none", 2
	ep, err := MakeEpisode(1, family, perturbation, index)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorld(ep)
	if err != nil {
		t.Fatal(err)
	}
	st := &episodeState{ep: ep, world: w, limit: 40, toolCalls: map[string]int{}, episode: episodeName(1, family, perturbation, index, 0)}
	env := &robotEnv{st: st, robot: "robot1", instruction: ep.Instruction(), tools: agents.Tools(false)}
	var cam agents.Camera = env
	start, seen, err := cam.View()
	if err != nil {
		t.Fatal(err)
	}
	views, err := Views(nil, 1, family, perturbation, index, 0, camera.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(ep.Objects) {
		t.Errorf("the camera shows %d objects, the table has %d", len(seen), len(ep.Objects))
	}
	for i, s := range seen {
		if s.Box != [4]int{views[0].Visible[i].Box.Min.X, views[0].Visible[i].Box.Min.Y, views[0].Visible[i].Box.Max.X, views[0].Visible[i].Box.Max.Y} || s.Fraction != views[0].Visible[i].Fraction {
			t.Errorf("object %s: seen %v %.3f, the view's visibility %v %.3f", s.ID, s.Box, s.Fraction, views[0].Visible[i].Box, views[0].Visible[i].Fraction)
		}
	}
	if start.Digest != views[0].Digest {
		t.Errorf("the camera's digest %s is not the opening view's %s", start.Digest, views[0].Digest)
	}
	png, err := start.Bytes()
	if err != nil || !bytes.Equal(png, views[0].PNG) {
		t.Errorf("the camera's bytes are not the opening view's (%v)", err)
	}
	plan := ep.Plan()
	if len(plan) == 0 || plan[0].Pick == "" {
		t.Fatalf("episode %d has no move in its plan", index)
	}
	callTool(t, env, agents.ToolPickAndPlace, `{"pick":"`+plan[0].Pick+`","place":"`+plan[0].Place+`"}`)
	after, _, err := cam.View()
	if err != nil {
		t.Fatal(err)
	}
	if after.Digest == start.Digest {
		t.Error("a move on the table left the image's digest as it was")
	}
	// The bytes are those of the table when the image was taken, even
	// when made later.
	again, _ := start.Bytes()
	if !bytes.Equal(again, png) {
		t.Error("the opening image's bytes changed after the move")
	}
}
