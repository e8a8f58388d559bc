package tabletop

import (
	"errors"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"slices"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// Name is the name of the tabletop track.
const Name = "tabletop"

// maxRedraws bounds how often an episode is drawn again when a layout has
// no room or a perturbation does not fit the draw.
const maxRedraws = 50

// MakeEpisode draws episode index of a cell. Redraws are numbered, so they
// are as deterministic as the first draw.
func MakeEpisode(seed uint64, family, perturbation string, index int) (*tasks.Episode, error) {
	return MakeEpisodeSized(seed, family, perturbation, index, 0)
}

// MakeEpisodeSized draws episode index of a cell with size objects on the
// table: the episode MakeEpisode draws, with distractor blocks and bowls
// added until the table holds size objects (see addDistractors). Size 0,
// or a size the episode already reaches, adds none. The distractors come
// from a stream of their own, so a smaller table of the same episode is a
// prefix of a larger one whenever both fit on the first draw.
func MakeEpisodeSized(seed uint64, family, perturbation string, index, size int) (*tasks.Episode, error) {
	if size < 0 || size > MaxSceneSize {
		return nil, fmt.Errorf("scene size %d: must be between 0 (the family's own) and %d", size, MaxSceneSize)
	}
	f, ok := tasks.Lookup(family)
	if !ok {
		return nil, fmt.Errorf("unknown task family %q", family)
	}
	p, ok := perturb.Lookup(perturbation)
	if !ok {
		return nil, fmt.Errorf("unknown perturbation %q", perturbation)
	}
	if !p.Applies(f) {
		return nil, fmt.Errorf("perturbation %q does not apply to task family %q", perturbation, family)
	}
	var last error
	for attempt := range maxRedraws {
		rng := bench.NewRand(bench.EpisodeSeed(seed, Name, family, perturbation, index, attempt))
		ep, err := f.Generate(rng)
		var before []scenes.Object
		if err == nil {
			before = slices.Clone(ep.Objects)
			err = p.Apply(rng, ep)
		}
		if err == nil && size > 0 {
			err = addDistractors(bench.NewRand(bench.EpisodeSeed(seed, Name, family, perturbation, index, attempt, "distractors")), ep, before, size)
		}
		if err == nil {
			return ep, nil
		}
		if !errors.Is(err, perturb.ErrRedraw) && !errors.Is(err, scenes.ErrNoRoom) {
			return nil, fmt.Errorf("%s/%s episode %d: %w", family, perturbation, index, err)
		}
		last = err
	}
	if size > 0 {
		return nil, fmt.Errorf("%s/%s episode %d at %d objects: no fitting draw in %d attempts: %w", family, perturbation, index, size, maxRedraws, last)
	}
	return nil, fmt.Errorf("%s/%s episode %d: no fitting draw in %d attempts: %w", family, perturbation, index, maxRedraws, last)
}

// Cells returns every (family, perturbation) pair the perturbation applies
// to, at each of sizes (none given: the family's own size only), families
// outermost, then perturbations, then sizes; families and perturbations
// in registry order. Empty filters mean all.
func Cells(families, perturbations []string, sizes ...int) ([]bench.Cell, error) {
	if len(sizes) == 0 {
		sizes = []int{0}
	}
	for i, n := range sizes {
		if n < 0 || n > MaxSceneSize {
			return nil, fmt.Errorf("scene size %d: must be between 0 (the family's own) and %d", n, MaxSceneSize)
		}
		if slices.Contains(sizes[:i], n) {
			return nil, fmt.Errorf("scene size %d given twice", n)
		}
	}
	if len(families) == 0 {
		families = tasks.Names()
	}
	if len(perturbations) == 0 {
		perturbations = perturb.Names()
	}
	var cells []bench.Cell
	for _, fn := range families {
		f, ok := tasks.Lookup(fn)
		if !ok {
			return nil, fmt.Errorf("unknown task family %q (have %v)", fn, tasks.Names())
		}
		for _, pn := range perturbations {
			p, ok := perturb.Lookup(pn)
			if !ok {
				return nil, fmt.Errorf("unknown perturbation %q (have %v)", pn, perturb.Names())
			}
			if !p.Applies(f) {
				continue
			}
			for _, n := range sizes {
				cells = append(cells, bench.Cell{Family: fn, Perturbation: pn, Size: n})
			}
		}
	}
	return cells, nil
}
