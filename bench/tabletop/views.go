package tabletop

import (
	"fmt"

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
	// The poses are the physics' output: the image is named by what drew
	// the table instead (camera.SceneDigest).
	scene := fmt.Sprintf("%s suite %d seed %d %s/%s episode %d size %d opening", Name, bench.SuiteVersion, seed, family, perturbation, index, size)
	out := make([]View, 0, len(robots))
	for _, robot := range robots {
		o := opt
		o.TwoRobots, o.Robot, o.Partial = ep.TwoRobots, robot, ep.TwoRobots && ep.PartialView
		png, vis, err := r.Render(objs, o)
		if err != nil {
			return nil, err
		}
		out = append(out, View{Robot: robot, Options: o, Digest: camera.SceneDigest(scene, o), PNG: png, Visible: vis})
	}
	return out, nil
}
