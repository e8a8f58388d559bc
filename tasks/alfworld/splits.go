package alfworld

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
)

// Spec names one game of a split: its stable id, its type and the seed
// that fixes it. [Spec.Build] makes the game.
type Spec struct {
	ID    string // "eval/pick_clean_then_place/12"
	Split string // "eval" or "train"
	Type  string
	Index int // within its type and split
	Seed  uint64
}

// Split names.
const (
	SplitEval  = "eval"
	SplitTrain = "train"
)

// EvalCounts is how many games of each type the evaluation split has: the
// proportions of ALFWorld's valid_unseen split, 134 games in all.
var evalCounts = []struct {
	Type string
	N    int
}{
	{TypePickAndPlace, 24},
	{TypePickCleanThenPlace, 31},
	{TypePickHeatThenPlace, 23},
	{TypePickCoolThenPlace, 21},
	{TypeLookAtObjInLight, 18},
	{TypePickTwoObjAndPlace, 17},
}

// EvalCount returns how many evaluation games a task type has.
func EvalCount(taskType string) int {
	for _, c := range evalCounts {
		if c.Type == taskType {
			return c.N
		}
	}
	return 0
}

// EvalGames returns the fixed evaluation split: 134 games, grouped by type
// in the order of ALFWorld's valid_unseen counts (24 put, 31 clean, 23
// heat, 21 cool, 18 examine, 17 pick-two). Ids and seeds never change.
func EvalGames() []Spec {
	var out []Spec
	for _, c := range evalCounts {
		for i := range c.N {
			out = append(out, newSpec(SplitEval, c.Type, i))
		}
	}
	return out
}

// EvalGame returns game index of a type in the evaluation split, the
// spec EvalGames lists for it, without making the other 133; false when
// the type has no game of that index.
func EvalGame(taskType string, index int) (Spec, bool) {
	if index < 0 || index >= EvalCount(taskType) {
		return Spec{}, false
	}
	return newSpec(SplitEval, taskType, index), true
}

// TrainGames returns the first n games of the training split, the six
// types in turn. Its seeds are hashed from another split name than the
// evaluation's, so the two never share a game.
func TrainGames(n int) []Spec {
	types := Types()
	out := make([]Spec, 0, max(n, 0))
	for j := range max(n, 0) {
		out = append(out, newSpec(SplitTrain, types[j%len(types)], j/len(types)))
	}
	return out
}

func newSpec(split, taskType string, index int) Spec {
	return Spec{
		ID:    fmt.Sprintf("%s/%s/%02d", split, taskType, index),
		Split: split,
		Type:  taskType,
		Index: index,
		Seed:  seedOf(split, taskType, index),
	}
}

// seedOf is a stable hash of what names a game.
func seedOf(split, taskType string, index int) uint64 {
	h := fnv.New64a()
	h.Write([]byte("household\x00" + split + "\x00" + taskType + "\x00"))
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(index))
	h.Write(buf[:])
	return h.Sum64()
}

// BuildWith makes the spec's game and applies a perturbation to it; nil
// leaves the game clear. The perturbation draws from a stream of its own,
// hashed from the seed and its name. When this game cannot take the
// perturbation (ErrRedraw), the next draw of the same spec is tried, so a
// spec and a perturbation always give the same game.
func (s Spec) BuildWith(p Perturbation) (*Game, error) {
	name := ""
	if p != nil {
		name = p.Name()
		if !p.AppliesToGame(s.Type) {
			return nil, fmt.Errorf("%s: perturbation %q does not apply to %s", s.ID, name, s.Type)
		}
	}
	seed := s.Seed
	for range generateAttempts {
		g, err := Generate(s.Type, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.ID, err)
		}
		g.ID = s.ID
		if p == nil {
			return g, nil
		}
		err = p.ApplyGame(newRand(seed^hashString(name)), g)
		if err == nil {
			return g, nil
		}
		if !errors.Is(err, ErrRedraw) {
			return nil, fmt.Errorf("%s: %w", s.ID, err)
		}
		seed = seed*0x9e3779b97f4a7c15 + 1
	}
	return nil, fmt.Errorf("%s: no game takes %s after %d draws", s.ID, name, generateAttempts)
}

// Build makes the spec's game under a built-in perturbation named by
// name ("" or tasks.LabelNone for none): BuildWith with that building
// block.
//
// Deprecated: it knows the built-ins only; use BuildWith with a
// perturbation from package perturb's registry (perturb.LookupHousehold).
func (s Spec) Build(perturbation string) (*Game, error) {
	b, ok := lookupBuiltin(perturbation)
	if !ok {
		return nil, fmt.Errorf("%s: unknown perturbation %q (want one of %v)", s.ID, perturbation, Perturbations())
	}
	if !b.AppliesToGame(s.Type) {
		return nil, fmt.Errorf("%s: perturbation %q does not apply to %s (see Applies)", s.ID, perturbation, s.Type)
	}
	if perturbation == "" {
		return s.BuildWith(nil)
	}
	return s.BuildWith(b)
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
