package tabletop

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// eyes are how a workflow that lists the objects it sees (CLARA, Inner
// Monologue, ProgPrompt, and each as the partner robot) looks at the
// table. With perception=detector a look is a detect_objects call: the
// detector's list, with positions, and the relations its boxes give
// (sceneOf). With perception=image a look is the robot's camera image
// read by the model, as SG-CoT reads it (lookAtImage): a detection call,
// and, when the workflow needs relations (Inner Monologue's feedback,
// ProgPrompt's assertions), the scene-graph call on the same image. The
// prompts then list what the model detected, without positions, and show
// the image; a move goes to the table with where its objects were seen
// (seeingEnv), which acts on what is there.
//
// A robot that looks again keeps its names: each object detected anew
// takes the name of the nearest object of its colour and type seen (or
// put) before, closest pairs first, and one never seen before a number
// not used yet. So "red block 1" of the first prompt is still the red
// block 1 of the feedback after it moved.
type eyes struct {
	model llm.Model
	image bool
	env   agents.Env // the table's own Env: its tools and its camera
	// With image: the last look; at is where each object it names was
	// last seen, or put (shared with seeingEnv); used are the numbers
	// each colour and type has named.
	last *sight
	at   map[string][2]int
	used map[string]int
	// looked is set once the first look has been reported to the table.
	looked bool
}

func newEyes(model llm.Model, perception string, env agents.Env) *eyes {
	return &eyes{model: model, image: perception == agents.PerceptionImage, env: env, at: map[string][2]int{}, used: map[string]int{}}
}

// eyesAfter are the eyes of a robot that has looked once already (SG-CoT,
// whose first look is its perception): the names of that look are the
// ones it keeps, and the look is not reported again.
func eyesAfter(model llm.Model, env agents.Env, s *sight) *eyes {
	e := newEyes(model, agents.PerceptionImage, env)
	e.last, e.looked, e.at = s, true, s.at
	for _, n := range s.graph.Nodes {
		e.noteUsed(n.ID)
	}
	return e
}

// acting is env as the workflow acts through it: with perception=image
// a seeingEnv that adds where each named object was seen.
func (e *eyes) acting(env agents.Env) agents.Env {
	if !e.image {
		return env
	}
	return seeingEnv{Env: env, eyes: e}
}

// look is what the robot sees at one look.
type look struct {
	// ds are the objects as the call's context carries them: the
	// detector's (detector) or the detected nodes with their boxes
	// (image).
	ds []llm.Detection
	// graph has the relations, when the look was asked for them: rebuilt
	// from the detector's boxes, or written by the scene-graph call.
	graph *scenes.Graph
	sight *sight // image only
}

// see looks at the table; relations asks for the relations too. The
// first look of the lead robot is reported to the table, which records
// what it got wrong (agents.PerceptionReporter).
func (e *eyes) see(ctx context.Context, relations bool) (*look, error) {
	var l *look
	if e.image {
		s, err := lookAtImage(ctx, e.model, e.env, relations, true)
		if err != nil {
			return nil, err
		}
		e.rename(s)
		l = &look{ds: s.inImage, graph: s.graph, sight: s}
	} else {
		ds, err := detectObjects(ctx, e.env)
		if err != nil {
			return nil, err
		}
		l = &look{ds: ds, graph: sceneOf(ds)}
		if !relations {
			// What the list shows: nodes, no relation.
			l.graph = &scenes.Graph{Nodes: l.graph.Nodes}
		}
	}
	if !e.looked {
		e.looked = true
		if r, ok := e.env.(agents.PerceptionReporter); ok {
			var at map[string][2]int
			if e.image {
				at = l.sight.at
			}
			if err := r.ReportPerception(l.graph, at); err != nil {
				return nil, fmt.Errorf("reporting its perception to the table: %w", err)
			}
		}
	}
	return l, nil
}

// listed is the look as a prompt lists it.
func (l *look) listed() []listedObject {
	if l.sight == nil {
		return listed(l.ds)
	}
	out := make([]listedObject, len(l.ds))
	for i, d := range l.ds {
		out[i] = listedObject{ID: d.ID, Type: d.Attributes[scenes.AttrType], Color: d.Attributes[scenes.AttrColor], InImage: true}
	}
	return out
}

// context is the look as a call's context carries it.
func (l *look) context() []llm.Detection {
	if l.sight == nil {
		return asListed(l.ds)
	}
	return l.ds
}

// frame is the note that follows the object list: how to read the
// positions, or where to look.
func (l *look) frame() string {
	if l.sight == nil {
		return frameNote
	}
	return imageNote
}

// imageNote follows the object list of a prompt that shows the image.
const imageNote = `The image is the robot's camera view of the table; the objects are listed as detected in it.`

// show puts the image in a request that lists this look: in its first
// message, and the image as drawn in its context, for the simulated
// model. A look of the detector shows nothing.
func (l *look) show(req *llm.Request) {
	if l.sight == nil {
		return
	}
	req.Messages[0].Images = []llm.Image{l.sight.img}
	req.Context.Seen, req.Context.ImageSize = l.sight.seen, [2]int{l.sight.img.Width, l.sight.img.Height}
}

// rename gives the nodes of a new look the names the robot has used:
// each takes the name of the nearest object of its colour and type at
// the points the robot knows (e.at), closest pairs first; one left over
// gets a number of its colour and type not used yet. Then the new look is
// the robot's knowledge: at holds where each of its nodes is.
func (e *eyes) rename(s *sight) {
	// Every name of the last look; one the robot has no point for (a
	// block it put at a named place) pairs after every one it has.
	kinds := map[string]string{}
	var known []string
	if e.last != nil {
		for _, n := range e.last.graph.Nodes {
			kinds[n.ID] = n.Attributes[scenes.AttrColor] + " " + n.Attributes[scenes.AttrType]
			known = append(known, n.ID)
		}
	}
	nodes := s.graph.Nodes
	type pair struct{ node, known, d int }
	var pairs []pair
	for ni, n := range nodes {
		kind := n.Attributes[scenes.AttrColor] + " " + n.Attributes[scenes.AttrType]
		p := s.at[n.ID]
		for ki, id := range known {
			if kinds[id] != kind {
				continue
			}
			d := unpointed
			if q, ok := e.at[id]; ok {
				dy, dx := p[0]-q[0], p[1]-q[1]
				d = dy*dy + dx*dx
			}
			pairs = append(pairs, pair{ni, ki, d})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.d, b.d) })
	name := make([]string, len(nodes))
	taken := make([]bool, len(known))
	for _, p := range pairs {
		if name[p.node] != "" || taken[p.known] {
			continue
		}
		name[p.node], taken[p.known] = known[p.known], true
	}
	for _, id := range known {
		e.noteUsed(id)
	}
	for ni, n := range nodes {
		if name[ni] == "" {
			color, typ := n.Attributes[scenes.AttrColor], n.Attributes[scenes.AttrType]
			k := color + " " + typ
			e.used[k]++
			name[ni] = scenes.ObjectID(color, typ, e.used[k])
		}
	}
	renameSight(s, name)
	e.last = s
	clear(e.at)
	for id, p := range s.at {
		e.at[id] = p
	}
}

// unpointed is the distance to a name with no point: more than any two
// points of an image (0 to 1000 on each axis) are apart, squared.
const unpointed = 1 << 30

// noteUsed counts id's number as used for its colour and type.
func (e *eyes) noteUsed(id string) {
	i := strings.LastIndexByte(id, ' ')
	if i < 0 {
		return
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return
	}
	if k := id[:i]; n > e.used[k] {
		e.used[k] = n
	}
}

// renameSight renames the i-th node of s's graph to name[i], in its
// edges, its points and its boxes too.
func renameSight(s *sight, name []string) {
	old := make(map[string]string, len(name))
	at := make(map[string][2]int, len(s.at))
	for i := range s.graph.Nodes {
		n := &s.graph.Nodes[i]
		old[n.ID] = name[i]
		if p, ok := s.at[n.ID]; ok {
			at[name[i]] = p
		}
		n.ID = name[i]
	}
	s.graph.RenameEdgeEnds(old)
	for i := range s.inImage {
		if v, ok := old[s.inImage[i].ID]; ok {
			s.inImage[i].ID = v
		}
	}
	s.at = at
}
