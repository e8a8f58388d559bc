// Package reference holds the reference agents, which need no model and
// play the three built-in tracks ([Tracks]): oracle (reads the ground truth through
// agents.TruthSource, the only agent allowed to, and must score
// perfectly), random (random valid calls, the floor) and rules (parses the
// instruction with the task grammar of package grounding, grounds it
// through retrieval, asks with the tag it infers, then acts). oracle.go,
// random.go and rules.go hold each agent and its tabletop play;
// household.go and semmap.go their play on the other tracks.
package reference

import "github.com/ambibench/ambibench/agents"

// Tracks are the tracks the reference agents play: the built-in ones,
// whose episodes they know how to read. A track of one's own brings its
// own reference agents (registered with agents.RegisterOn), or teaches
// these its episodes and adds its name here.
var Tracks = []string{agents.TrackTabletop, agents.TrackHousehold, agents.TrackSemmap}
