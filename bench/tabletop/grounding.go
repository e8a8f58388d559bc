package tabletop

import (
	"errors"
	"fmt"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
	"github.com/ambibench/ambibench/sim/physics"
)

// cameraOptions are the robot's camera on the episode's table: the
// default camera, with the episode's robots and partial view.
func (e *robotEnv) cameraOptions() camera.Options {
	return robotCamera(camera.DefaultOptions(), e.st.ep, e.robot).Resolved()
}

// pickAndPlaceAt runs a pick_and_place whose pick or place, or both, come
// with a point of the robot's camera image (pick_at, place_at): the table
// acts on what the image shows there now (grounding by geometry), and the
// names the call gives those two say nothing. The point of pick_at picks
// what camera.Pick takes: the first object the line of sight meets, or the
// one nearest where it meets the table, within camera.PickTolerance; with
// nothing there the call is refused, as a robot that closes its gripper on
// nothing would report. The point of place_at is the object the line meets
// (camera.Hit: a bowl to put the block in, a block to stack it on), or
// else the table where the line meets it. A pick or place without a point
// goes by its name, as in a call with none. Whatever names the call uses,
// two calls at one point act on one object.
func (e *robotEnv) pickAndPlaceAt(a *agents.PickAndPlaceArgs) (agents.Result, error) {
	st := e.st
	opt := e.cameraOptions()
	objs := st.objects()
	pick, place := e.actual(a.Pick), e.actual(a.Place)
	// said holds the names the robot gave that the table goes by; the
	// objects found at a point are named in a refusal by where they are.
	var said, rename []string
	if a.PickAt != nil {
		y, x := a.PickAt[0], a.PickAt[1]
		if r, ok := inImage("pick_at", y, x); !ok {
			return r, nil
		}
		i, ok := camera.Pick(objs, opt, float64(y), float64(x))
		if !ok {
			return bench.Refused("pick_and_place: nothing to grasp at [%d, %d]", y, x), nil
		}
		if objs[i].Class != scenes.ClassBlock {
			// A gripper sent to a point closes on the block there: the rim
			// of a bowl in front of it (a box's centre can fall on it) does
			// not stop it. With no block there, the bowl is what the call
			// tried to pick, and the world refuses it.
			if b, ok := pickBlock(objs, opt, float64(y), float64(x)); ok {
				i = b
			}
		}
		pick = objs[i].ID
		rename = append(rename, pick, fmt.Sprintf("the object at [%d, %d]", y, x))
	} else {
		said = append(said, a.Pick)
	}
	// moveTo names the place in the moves that name the table's images:
	// an object's id, or the image point of a place on the table, exact
	// on every machine where the table coordinates it stands for may not
	// be.
	moveTo := place
	var onTable bool
	var px, py float64
	if a.PlaceAt != nil {
		y, x := a.PlaceAt[0], a.PlaceAt[1]
		if r, ok := inImage("place_at", y, x); !ok {
			return r, nil
		}
		// The block being carried is not where it is put: a line of sight
		// through it (it may stand in front of the bowl meant) goes on.
		others := make([]scenes.Object, 0, len(objs))
		for _, o := range objs {
			if o.ID != pick {
				others = append(others, o)
			}
		}
		if i, ok := camera.Hit(others, opt, float64(y), float64(x)); ok {
			place, moveTo = others[i].ID, others[i].ID
			rename = append(rename, place, fmt.Sprintf("the object at [%d, %d]", y, x))
		} else if px, py, onTable = camera.TablePoint(opt, float64(y), float64(x)); onTable {
			moveTo = fmt.Sprintf("the table at [%d, %d]", y, x)
			// The world writes a point as (x, y) in metres; the robot
			// gave it as a point of its image.
			rename = append(rename, fmt.Sprintf("(%.3f, %.3f)", px, py), fmt.Sprintf("place_at [%d, %d]", y, x))
		} else {
			return bench.Refused("pick_and_place: nowhere to put it at [%d, %d]: the image shows no table there", y, x), nil
		}
	} else {
		said = append(said, a.Place)
	}
	var err error
	if onTable {
		_, err = st.world.PickAndPlaceAt(e.robot, pick, px, py)
	} else {
		_, err = st.world.PickAndPlace(e.robot, pick, place)
	}
	if err != nil {
		var ae *physics.ActionError
		if !errors.As(err, &ae) {
			return agents.Result{}, err
		}
		reason := ae.Reason
		for k := 0; k < len(rename); k += 2 {
			reason = replaceID(reason, rename[k], rename[k+1])
		}
		return bench.Refused("%s", e.perceived(reason, said...)), nil
	}
	st.changed()
	st.actedBy = append(st.actedBy, e.robot)
	st.moves = append(st.moves, e.robot+" "+pick+" > "+moveTo)
	return agents.Result{Text: fmt.Sprintf("%s put %s at %s.", e.robot, a.Pick, a.Place)}, nil
}

// pickBlock is camera.Pick over the blocks alone, as an index of objs.
func pickBlock(objs []scenes.Object, opt camera.Options, y, x float64) (int, bool) {
	var idx []int
	var blocks []scenes.Object
	for i, o := range objs {
		if o.Class == scenes.ClassBlock {
			idx, blocks = append(idx, i), append(blocks, o)
		}
	}
	j, ok := camera.Pick(blocks, opt, y, x)
	if !ok {
		return 0, false
	}
	return idx[j], true
}

// inImage refuses a point outside the image.
func inImage(field string, y, x int) (agents.Result, bool) {
	if y < 0 || y > camera.PointScale || x < 0 || x > camera.PointScale {
		return bench.Refused("pick_and_place: %s [%d, %d] is outside the image (y and x each run from 0 to %d)", field, y, x, camera.PointScale), false
	}
	return agents.Result{}, true
}
