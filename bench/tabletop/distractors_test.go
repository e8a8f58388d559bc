package tabletop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/ambibench/ambibench/scenes"
)

// clearAll is the clearance test over every object, which the grid must
// answer alike.
func clearAll(objs []scenes.Object, class string, x, y float64) bool {
	for _, o := range objs {
		dx, dy := o.Pose.X()-x, o.Pose.Y()-y
		switch {
		case class == scenes.ClassBowl && o.Class == scenes.ClassBowl:
			if math.Hypot(dx, dy) < bowlClearance {
				return false
			}
		case class == scenes.ClassBowl || o.Class == scenes.ClassBowl:
			if math.Hypot(dx, dy) < bowlBlockClearance {
				return false
			}
		case math.Abs(dx) < blockClearance && math.Abs(dy) < blockClearance:
			return false
		}
	}
	return true
}

// The grid finds every object within a clearance of a spot: on tables of
// every density, with objects and spots on the cells' borders, on the
// table's edges and off the table, where the grid clamps them.
func TestClearanceGridIsTheScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	point := func() (float64, float64) {
		switch rng.IntN(4) {
		case 0: // off the table, by up to a clearance
			return scenes.TableMinX - 0.2 + 1.0*rng.Float64(), scenes.TableMinY - 0.2 + 1.0*rng.Float64()
		case 1: // on a cell border
			return scenes.TableMinX + float64(rng.IntN(6))*bowlClearance, scenes.TableMinY + float64(rng.IntN(6))*bowlClearance
		}
		return scenes.TableMinX + 0.6*rng.Float64(), scenes.TableMinY + 0.6*rng.Float64()
	}
	for trial := range 300 {
		var objs []scenes.Object
		var g clearanceGrid
		for i := range rng.IntN(60) {
			x, y := point()
			o := scenes.NewBlock(scenes.ObjectID("red", scenes.ClassBlock, i+1), "red", x, y)
			if rng.IntN(4) == 0 {
				o = scenes.NewBowl(scenes.ObjectID("red", scenes.ClassBowl, i+1), "red", x, y)
			}
			objs = append(objs, o)
			g.insert(x, y, i)
		}
		for range 50 {
			x, y := point()
			for _, class := range []string{scenes.ClassBlock, scenes.ClassBowl} {
				if got, want := g.clear(objs, class, x, y), clearAll(objs, class, x, y); got != want {
					t.Errorf("trial %d, a %s at (%.3f, %.3f) among %d objects: grid %v, scan %v", trial, class, x, y, len(objs), got, want)
				}
			}
		}
	}
}

// The masks of a spot check and AddSpacedOff are shortcuts: a spot a
// mask covers is one the clearance or a place kept clear refuses (the
// draws skip it), and a spot the clearances allow keeps the layout's
// spacing, which AddSpacedOff then does not test. Were either not so,
// distractors would land elsewhere than sampling over the plain tests
// puts them.
func TestSpotCheckShortcutsRefuseWhatTheTestsRefuse(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 20 {
		ep, err := MakeEpisodeSized(1, "pick_place", "none", i, 12+rng.IntN(MaxSceneSize-11))
		if err != nil {
			t.Fatal(err)
		}
		keepClear := []mgl64.Vec2{scenes.Places["top left corner"], scenes.SharedPoint}
		d := newSpotCheck(nil, nil, keepClear)
		for k, o := range ep.Objects {
			d.add(o, k)
		}
		l := scenes.LayoutOf(rng, blockClearance, false, ep.Objects)
		for range 5000 {
			x := scenes.TableMinX + 0.6*rng.Float64()
			y := scenes.TableMinY + 0.6*rng.Float64()
			for _, class := range []string{scenes.ClassBlock, scenes.ClassBowl} {
				clear := d.cells.clear(ep.Objects, class, x, y)
				for _, p := range keepClear {
					clear = clear && !closer(p.X()-x, p.Y()-y, placeClearance)
				}
				if d.masks[classIndex(class)].Covered(x, y) && clear {
					t.Fatalf("episode %d: a %s at (%v, %v): the mask covers a spot the tests allow", i, class, x, y)
				}
				if d.cells.clear(ep.Objects, class, x, y) && !l.Free(x, y) {
					t.Fatalf("episode %d: a %s at (%v, %v): the clearances allow a spot the layout's spacing refuses", i, class, x, y)
				}
			}
		}
	}
}

// A spot check judges a phrase by the probe alone where it can (what the
// phrase finds gains the probe or stays as it was) and by resolving it
// over the whole table where an anchor's own resolution may change; both
// must say what resolving every phrase over the table with the probe
// says. Probes of every class and colour are tried, those a draw never
// makes too (a colour and class a phrase names, which an anchor finds),
// at spots all over the table, crowded or not.
func TestSpotCheckKeepsWhatResolvingSays(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	judged, whole := 0, 0
	for _, family := range []string{"spatial", "pick_place"} {
		for _, pert := range []string{"none", "multiplicity", "absence"} {
			for i := range 4 {
				for _, size := range []int{0, 24, MaxSceneSize} {
					ep, err := MakeEpisodeSized(1, family, pert, i, size)
					if err != nil {
						t.Fatal(err)
					}
					refs, err := episodeRefs(ep)
					if err != nil {
						t.Fatal(err)
					}
					objs := ep.Objects
					want, err := resolveAll(objs, refs)
					if err != nil {
						t.Fatal(err)
					}
					d := newSpotCheck(refs, want, nil)
					l := scenes.LayoutOf(rng, blockClearance, ep.TwoRobots, objs)
					for _, class := range []string{scenes.ClassBlock, scenes.ClassBowl} {
						for _, color := range scenes.Colors {
							d.roomFor(l, class, color, objs)
							for range 40 {
								x := scenes.TableMinX + 0.6*rng.Float64()
								y := scenes.TableMinY + 0.6*rng.Float64()
								d.probe.Pose[0], d.probe.Pose[1] = x, y
								d.resolved = false
								got := d.keeps(objs)
								if d.err != nil {
									t.Fatal(d.err)
								}
								probed := append(slices.Clone(objs), d.probe)
								res, err := resolveAll(probed, refs)
								if err != nil {
									t.Fatal(err)
								}
								if same := slices.EqualFunc(res, want, slices.Equal); got != same {
									t.Fatalf("%s/%s episode %d at %d objects, %s at (%.3f, %.3f): the check says %v, resolving says %v (%v against %v)",
										family, pert, i, size, d.probe.ID, x, y, got, same, res, want)
								}
								judged++
								if d.resolved {
									whole++
								}
							}
						}
					}
				}
			}
		}
	}
	// Both ways of judging were tried.
	if whole == 0 || whole == judged {
		t.Errorf("%d of %d spots were judged by resolving the phrases whole; want some but not all", whole, judged)
	}
}

// classIndex is the index of a distractor's class in a spot check's
// arrays by class.
func classIndex(class string) int {
	if class == scenes.ClassBowl {
		return classBowl
	}
	return classBlock
}
