package tabletop

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/tasks"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
)

// View is one robot's camera image of an episode's table.
type View struct {
	Robot   string           // scenes.Robot1 or scenes.Robot2
	Options camera.Options   // the camera, with the episode's robots and view filled in
	Digest  string           // camera.SceneDigest of the episode's opening table
	PNG     []byte           // the image
	Visible []camera.Visible // each object's box and visible fraction, in the table's order
}

// Views renders the opening table of episode index of a cell, as each of
// its robots' cameras see it: robot 1 alone on a one-robot table, then
// robot 2 on a two-robot one, each under the episode's partial view. The
// table is the one the robots' detectors read at the first step, after
// the physics has settled it. opt gives the image size and the camera;
// its TwoRobots, Robot and Partial fields are the episode's. r keeps the
// rasteriser's buffers between calls; nil renders without.
func Views(r *camera.Renderer, seed uint64, family, perturbation string, index, size int, opt camera.Options) ([]View, error) {
	ep, err := MakeEpisodeSized(seed, family, perturbation, index, size)
	if err != nil {
		return nil, err
	}
	world, err := NewWorld(ep)
	if err != nil {
		return nil, fmt.Errorf("%s/%s episode %d: %w", family, perturbation, index, err)
	}
	objs := world.Objects()
	robots := []string{scenes.Robot1}
	if ep.TwoRobots {
		robots = append(robots, scenes.Robot2)
	}
	if r == nil {
		r = new(camera.Renderer)
	}
	scene := sceneName(episodeName(seed, family, perturbation, index, size), nil)
	out := make([]View, 0, len(robots))
	for _, robot := range robots {
		o := robotCamera(opt, ep, robot)
		png, vis, err := r.Render(objs, o)
		if err != nil {
			return nil, err
		}
		out = append(out, View{Robot: robot, Options: o, Digest: camera.SceneDigest(scene, o), PNG: png, Visible: vis})
	}
	return out, nil
}

// episodeName names an episode's table as drawn: the suite version, the
// seed, the cell and the index.
func episodeName(seed uint64, family, perturbation string, index, size int) string {
	return fmt.Sprintf("%s suite %d seed %d %s/%s episode %d size %d", Name, bench.SuiteVersion, seed, family, perturbation, index, size)
}

// sceneName names a table by what made it, for camera.SceneDigest: the
// poses are the physics' output, which may differ in their last bits
// between machines, while the episode (episodeName) and the moves made on
// it since it was drawn do not.
func sceneName(name string, moves []string) string {
	if len(moves) == 0 {
		return name + " opening"
	}
	return name + " after " + strings.Join(moves, "; ")
}

// robotCamera is opt as robot's camera on ep's table: how many robots
// stand there, whose view it is and whether the other's strip is hidden.
func robotCamera(opt camera.Options, ep *tasks.Episode, robot string) camera.Options {
	opt.TwoRobots, opt.Robot, opt.Partial = ep.TwoRobots, robot, ep.TwoRobots && ep.PartialView
	return opt
}

// View is the robot's camera view of the table as it is now (the default
// camera), named by the episode and the moves made so far, with what it
// shows of each object the robot observes; the image's bytes are
// rendered, from a copy of the table taken now, only when a backend sends
// them.
func (e *robotEnv) View() (llm.Image, []llm.Seen, error) {
	st := e.st
	opt := e.cameraOptions()
	objs, vis, err := e.visibility()
	if err != nil {
		return llm.Image{}, nil, err
	}
	seen := make([]llm.Seen, 0, len(vis))
	for i, v := range vis {
		if v.Hidden {
			continue
		}
		b := v.Box
		// The attributes as the detector gives them, the workspace
		// included: the image shows the strips the objects stand in.
		d := llm.DetectionOf(objs[i])
		seen = append(seen, llm.Seen{ID: objs[i].ID, Attributes: d.Attributes,
			Box: [4]int{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}, Fraction: v.Fraction, Pos: d.Pos, Size: d.Size})
	}
	name := sceneName(st.episode, st.moves)
	img := llm.Image{
		Digest: camera.SceneDigest(name, opt), MIME: llm.ImagePNG, Width: opt.Width, Height: opt.Height,
		Data: func() ([]byte, error) {
			img, err := camera.Draw(objs, opt)
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			err = camera.EncodePNG(&buf, img)
			return buf.Bytes(), err
		},
	}
	return img, seen, nil
}
