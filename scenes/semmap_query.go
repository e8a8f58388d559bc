package scenes

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// ObjectQuery is the structured form of an object-centred query over a
// semantic map: which objects are wanted, which are excluded, and where
// they must be. ParseObjectQuery reads it from English; ResolveObjects
// answers it over a map. The built-in dataset's ground truth is
// ResolveObjects over the true map, and the reference agents run the same
// code over the detected one.
type ObjectQuery struct {
	// Classes wanted (any of them); empty means any class that serves
	// Affordance.
	Classes []string `json:"classes,omitempty"`
	// Affordance wanted ("sit"); with Classes, both must hold.
	Affordance string `json:"affordance,omitempty"`
	// Exclude are classes the answer must not contain.
	Exclude []string `json:"exclude,omitempty"`
	// ExcludeAffordance drops every class that serves it ("does not
	// close" excludes what opens).
	ExcludeAffordance string `json:"exclude_affordance,omitempty"`
	// Relation to an object of class Anchor: MapRelNear, MapRelOn, MapRelFar or "".
	Relation string `json:"relation,omitempty"`
	Anchor   string `json:"anchor,omitempty"`
}

// Spatial relations of an ObjectQuery.
const (
	MapRelNear = "near" // centres within MapNearDistance of some anchor
	MapRelOn   = "on"   // resting on top of some anchor's box
	MapRelFar  = "far"  // no anchor within MapNearDistance ("not near the TV")
)

// MapNearDistance is how close two centres are when one is near the other.
const MapNearDistance = 1.5

// onTolerance is the gap between an object's bottom and a support's top
// that still counts as resting on it: detector boxes are loose.
const onTolerance = 0.1

// String renders the query compactly, for logs and test failures.
func (q ObjectQuery) String() string { return "{" + strings.Join(q.Fields(), " ") + "}" }

// Fields returns the query's set parts as key=value strings, in a fixed
// order ("classes=chair|couch", "affordance=sit", "near=table"), for
// writers of a query in some syntax of their own.
func (q ObjectQuery) Fields() []string {
	var parts []string
	if len(q.Classes) > 0 {
		parts = append(parts, "classes="+strings.Join(q.Classes, "|"))
	}
	if q.Affordance != "" {
		parts = append(parts, "affordance="+q.Affordance)
	}
	if len(q.Exclude) > 0 {
		parts = append(parts, "exclude="+strings.Join(q.Exclude, "|"))
	}
	if q.ExcludeAffordance != "" {
		parts = append(parts, "exclude_affordance="+q.ExcludeAffordance)
	}
	if q.Relation != "" {
		parts = append(parts, q.Relation+"="+q.Anchor)
	}
	return parts

}

// MapNear reports whether a's centre is within MapNearDistance of b's.
func MapNear(a, b Instance) bool { return a.Center.Sub(b.Center).Len() <= MapNearDistance }

// RestsOn reports whether a rests on b: a's bottom is at b's top (within a
// tolerance) and a's centre lies over b's footprint.
func RestsOn(a, b Instance) bool { return restsOn(a.Center, a.Size, b.Center, b.Size) }

// restsOn is RestsOn over boxes.
func restsOn(ac, as, bc, bs mgl64.Vec3) bool {
	bottom := ac[2] - as[2]/2
	top := bc[2] + bs[2]/2
	return math.Abs(bottom-top) <= onTolerance &&
		math.Abs(ac[0]-bc[0]) <= bs[0]/2 &&
		math.Abs(ac[1]-bc[1]) <= bs[1]/2
}

// ResolveOptions tune ResolveObjectsWith.
type ResolveOptions struct {
	// MinP, when positive, lets an instance count as any class it gives at
	// least this probability, not only its most probable one; a reader of
	// the uncertainty input can hedge that way.
	MinP float64
}

// ResolveObjects answers q over m from each instance's most probable
// class: the ids of the instances that satisfy it, best first (by how
// well the class serves the affordance, then by distance to the anchor,
// nearest first, or farthest first for MapRelFar, then in map order);
// never nil, so that an empty answer encodes as [].
func ResolveObjects(m *SemanticMap, q ObjectQuery) []string {
	return ResolveObjectsWith(m, q, ResolveOptions{})
}

// ResolveObjectsWith is ResolveObjects with options.
func ResolveObjectsWith(m *SemanticMap, q ObjectQuery, opts ResolveOptions) []string {
	if len(q.Classes) == 0 && q.Affordance == "" {
		return []string{}
	}
	var anchors []Instance
	var tree *anchorTree
	if q.Relation != "" {
		for i := range m.Instances {
			if hasClass(&m.Instances[i], q.Anchor, opts) {
				anchors = append(anchors, m.Instances[i])
			}
		}
		tree = newAnchorTree(anchors)
	}
	// A hit holds no string, so that sorting moves no pointers; order, the
	// instance's index, is unique, so the order is total and an unstable
	// sort sorts as a stable one.
	type hit struct {
		fit   float64
		dist  float64
		order int
	}
	var hits []hit
	for i := range m.Instances {
		in := &m.Instances[i]
		fit := instanceFit(q, in, opts)
		if fit == 0 {
			continue
		}
		var dist float64
		var ok bool
		if tree != nil && finiteBox(in) {
			dist, ok = tree.relate(in, q.Relation)
		} else {
			dist, ok = relate(*in, anchors, q.Relation)
		}
		if !ok {
			continue
		}
		hits = append(hits, hit{fit, dist, i})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.fit, a.fit); c != 0 {
			return c
		}
		if q.Relation == MapRelFar {
			if c := cmp.Compare(b.dist, a.dist); c != 0 {
				return c
			}
		} else if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		return a.order - b.order
	})
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = m.Instances[h.order].ID
	}
	return ids
}

// queryFit is how well one class answers q, ignoring geometry: 0 when
// excluded or unwanted.
func queryFit(q ObjectQuery, class string) float64 {
	if class == "" || class == ClassUnknown || slices.Contains(q.Exclude, class) {
		return 0
	}
	if q.ExcludeAffordance != "" && AffordanceFit(q.ExcludeAffordance, class) > 0 {
		return 0
	}
	if len(q.Classes) > 0 && !slices.Contains(q.Classes, class) {
		return 0
	}
	if q.Affordance != "" {
		return AffordanceFit(q.Affordance, class)
	}
	return 1
}

// instanceFit is how well an instance answers q, ignoring geometry: the
// best of its classes' fits (see classWeight), 0 when none fits.
func instanceFit(q ObjectQuery, in *Instance, opts ResolveOptions) float64 {
	fit := 0.0
	for i, c := range in.Classes {
		if w, ok := classWeight(in, i, opts); ok {
			fit = max(fit, queryFit(q, c.Class)*w)
		}
	}
	return fit
}

// classWeight says whether an instance may be taken for its i-th class,
// and at what weight: its most probable one at full weight, and with MinP
// the others above it, weighted by their probability relative to the best.
// (A function of an index and not a slice of classes: the slice cost an
// allocation per instance and query.)
func classWeight(in *Instance, i int, opts ResolveOptions) (float64, bool) {
	switch {
	case i == 0:
		return 1, true
	case opts.MinP <= 0 || !(in.Classes[i].P >= opts.MinP): // a NaN P is not above it
		return 0, false
	}
	return in.Classes[i].P / in.Classes[0].P, true
}

func hasClass(in *Instance, class string, opts ResolveOptions) bool {
	for i, c := range in.Classes {
		if _, ok := classWeight(in, i, opts); ok && c.Class == class {
			return true
		}
	}
	return false
}

// relate checks in against the anchors under rel and returns the distance
// that ranks it: to the nearest qualifying anchor, or for MapRelFar to the
// nearest anchor at all (infinite when there is none). It measures every
// anchor; anchorTree.relate gives the same answer from a few of many.
func relate(in Instance, anchors []Instance, rel string) (float64, bool) {
	if rel == "" {
		return 0, true
	}
	best, found := math.Inf(1), false
	for _, a := range anchors {
		if a.ID == in.ID {
			continue
		}
		d := in.Center.Sub(a.Center).Len()
		switch rel {
		case MapRelNear:
			if d <= MapNearDistance {
				best, found = min(best, d), true
			}
		case MapRelOn:
			if RestsOn(in, a) {
				best, found = min(best, d), true
			}
		case MapRelFar:
			best = min(best, d)
		}
	}
	if rel == MapRelFar {
		return best, best > MapNearDistance
	}
	return best, found
}
