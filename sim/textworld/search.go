package textworld

import (
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// ShortestPlan searches breadth-first from the game's current state for
// the fewest commands after which goal holds, trying at most maxDepth
// commands. It expands the admissible commands that change the state (not
// look, inventory, help or examine), and of those only the ones keep
// accepts, so that a caller can leave out commands it knows to be useless
// (taking an object the goal does not mention, say); nil keeps all. It
// returns the commands and whether the goal was reached. The game itself
// is not changed.
//
// The search is exact but exponential; it is meant to check planners on
// small problems, not to play.
func ShortestPlan(g *Game, goal func(*scenes.House) bool, keep func(cmd string) bool, maxDepth int) ([]string, bool) {
	type node struct {
		g      *Game
		parent int
		cmd    string
		depth  int
	}
	root := g.Clone()
	if goal(root.h) {
		return nil, true
	}
	nodes := []node{{g: root, parent: -1}}
	seen := map[string]bool{stateKey(root.h): true}
	for head := 0; head < len(nodes); head++ {
		n := nodes[head]
		if n.depth >= maxDepth {
			continue
		}
		for _, cmd := range n.g.Admissible() {
			if !changesState(cmd) || keep != nil && !keep(cmd) {
				continue
			}
			child := n.g.Clone()
			child.Step(cmd)
			key := stateKey(child.h)
			if seen[key] {
				continue
			}
			seen[key] = true
			nodes = append(nodes, node{g: child, parent: head, cmd: cmd, depth: n.depth + 1})
			if goal(child.h) {
				var plan []string
				for i := len(nodes) - 1; i > 0; i = nodes[i].parent {
					plan = append(plan, nodes[i].cmd)
				}
				for l, r := 0, len(plan)-1; l < r; l, r = l+1, r-1 {
					plan[l], plan[r] = plan[r], plan[l]
				}
				return plan, true
			}
		}
		nodes[head].g = nil // expanded; let it go
	}
	return nil, false
}

func changesState(cmd string) bool {
	switch {
	case cmd == "look", cmd == "inventory", cmd == "help", strings.HasPrefix(cmd, "examine "):
		return false
	}
	return true
}

// stateKey packs everything a command can change into a string.
func stateKey(h *scenes.House) string {
	b := make([]byte, 0, 4+len(h.Receptacles)+3*len(h.Items))
	b = append(b, byte(h.At+1), byte((h.At+1)>>8), byte(h.Held+1), byte((h.Held+1)>>8))
	for _, r := range h.Receptacles {
		b = append(b, boolByte(r.Open))
	}
	for _, it := range h.Items {
		flags := boolByte(it.Hot) | boolByte(it.Cold)<<1 | boolByte(it.Clean)<<2 | boolByte(it.On)<<3
		b = append(b, byte(it.In+1), byte((it.In+1)>>8), flags)
	}
	return string(b)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
