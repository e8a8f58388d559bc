package bench

import (
	"errors"
	"fmt"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// Track is the name of the tabletop track.
const Track = "tabletop"

// maxRedraws bounds how often an episode is drawn again when a layout has
// no room or a perturbation does not fit the draw.
const maxRedraws = 50

// MakeEpisode draws episode index of a cell. Redraws are numbered, so they
// are as deterministic as the first draw.
func MakeEpisode(seed uint64, family, perturbation string, index int) (*tasks.Episode, error) {
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
		rng := newRand(EpisodeSeed(seed, Track, family, perturbation, index, attempt))
		ep, err := f.Generate(rng)
		if err == nil {
			err = p.Apply(rng, ep)
		}
		if err == nil {
			return ep, nil
		}
		if !errors.Is(err, perturb.ErrRedraw) && !errors.Is(err, scenes.ErrNoRoom) {
			return nil, fmt.Errorf("%s/%s episode %d: %w", family, perturbation, index, err)
		}
		last = err
	}
	return nil, fmt.Errorf("%s/%s episode %d: no fitting draw in %d attempts: %w", family, perturbation, index, maxRedraws, last)
}

// Cell is one task family under one perturbation.
type Cell struct{ Family, Perturbation string }

// Cells returns every (family, perturbation) pair the perturbation applies
// to, families outermost, both in registry order. Empty filters mean all.
func Cells(families, perturbations []string) ([]Cell, error) {
	if len(families) == 0 {
		families = tasks.Names()
	}
	if len(perturbations) == 0 {
		perturbations = perturb.Names()
	}
	var cells []Cell
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
			if p.Applies(f) {
				cells = append(cells, Cell{fn, pn})
			}
		}
	}
	return cells, nil
}
