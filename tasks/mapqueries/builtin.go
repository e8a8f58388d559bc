package mapqueries

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// BuiltinSizes are the numbers of real objects of the built-in maps, from
// a corner of a room to a whole flat; the map a reader gets holds a few
// fewer (what the detector left unknown is dropped).
var BuiltinSizes = []int{10, 20, 35, 50, 70, 90, 110, 130}

// Generated is one built-in map: what the detector made of the world, and
// the world itself over the same instances.
type Generated struct {
	// Map is the detected map, exactly as its Voxeland file reads back.
	Map *scenes.SemanticMap
	// True has the same instances, each with its true class at
	// probability 1: the world the detector looked at. The ground truth
	// is not computed over it (see the package comment); it is here to
	// measure the detector.
	True *scenes.SemanticMap
	// File is Map's Voxeland file, scores as evidence, unknown instances
	// included.
	File []byte
}

// Builtin generates the built-in dataset for a seed: one map per
// BuiltinSizes entry, the 30 built-in queries, and the truth of every
// (map, query) computed over the detected map, each object taken as its
// most probable class, near meaning centres within scenes.MapNearDistance
// (Dataset.Near). Its maps are generated, not scanned: they have no
// origin.
func Builtin(seed uint64) *Dataset {
	d := &Dataset{Name: "builtin", Queries: BuiltinQueries(), Truth: map[string]map[string][]string{}, Sources: map[string][]byte{},
		Near: scenes.MapNearDistance}
	for i, n := range BuiltinSizes {
		g := Generate(seed, i, n)
		d.Maps = append(d.Maps, g.Map)
		d.Sources[g.Map.Name] = g.File
		d.Truth[g.Map.Name] = TruthOf(g.Map)
	}
	return d
}

// TruthOf answers every built-in query over a map, each instance taken as
// its most probable class.
func TruthOf(truth *scenes.SemanticMap) map[string][]string {
	out := make(map[string][]string, len(templates))
	for _, t := range templates {
		ids := scenes.ResolveObjects(truth, t.Request)
		if ids == nil {
			ids = []string{}
		}
		out[t.ID] = ids
	}
	return out
}

// object is a thing of the generated world.
type object struct {
	class        string
	center, size mgl64.Vec3
}

// classSize is a class's typical box (x, y, z), in metres.
var classSize = map[string]mgl64.Vec3{
	"chair": {0.5, 0.5, 0.9}, "couch": {2.0, 0.9, 0.85}, "bed": {2.0, 1.6, 0.55},
	"bench": {1.4, 0.4, 0.45}, "dining table": {1.6, 0.9, 0.75}, "desk": {1.2, 0.6, 0.75},
	"cabinet": {1.0, 0.5, 0.9}, "shelf": {1.0, 0.35, 1.8}, "toilet": {0.4, 0.65, 0.75},
	"sink": {0.5, 0.4, 0.2}, "refrigerator": {0.7, 0.7, 1.8}, "microwave": {0.5, 0.35, 0.3},
	"oven": {0.6, 0.6, 0.9}, "toaster": {0.3, 0.2, 0.2}, "tv": {1.1, 0.1, 0.65},
	"lamp": {0.3, 0.3, 1.5}, "laptop": {0.35, 0.25, 0.03}, "keyboard": {0.45, 0.15, 0.03},
	"mouse": {0.1, 0.06, 0.04}, "cell phone": {0.15, 0.07, 0.01}, "remote": {0.2, 0.05, 0.03},
	"book": {0.22, 0.15, 0.04}, "clock": {0.3, 0.05, 0.3}, "vase": {0.15, 0.15, 0.3},
	"potted plant": {0.4, 0.4, 0.7}, "bottle": {0.08, 0.08, 0.28}, "cup": {0.09, 0.09, 0.1},
	"bowl": {0.18, 0.18, 0.08}, "backpack": {0.35, 0.25, 0.5}, "handbag": {0.35, 0.15, 0.3},
	"suitcase": {0.5, 0.3, 0.7}, "umbrella": {0.1, 0.1, 0.9}, "bicycle": {1.7, 0.5, 1.0},
	"sports ball": {0.22, 0.22, 0.22}, "teddy bear": {0.3, 0.25, 0.35},
}

// confusions are the classes a detector mistakes a class for, most likely
// first: look-alikes in shape or context.
var confusions = map[string][]string{
	"chair": {"couch", "bench"}, "couch": {"chair", "bed"}, "bed": {"couch"},
	"bench": {"chair", "couch"}, "dining table": {"desk"}, "desk": {"dining table"},
	"cabinet": {"refrigerator", "shelf"}, "shelf": {"cabinet"}, "toilet": {"sink", "chair"},
	"sink": {"toilet", "bowl"}, "refrigerator": {"cabinet"}, "microwave": {"oven", "tv"},
	"oven": {"microwave"}, "toaster": {"microwave"}, "tv": {"laptop"}, "lamp": {"vase"},
	"laptop": {"tv", "keyboard"}, "keyboard": {"laptop"}, "mouse": {"remote"},
	"cell phone": {"remote"}, "remote": {"cell phone"}, "book": {"laptop"},
	"clock": {"vase"}, "vase": {"bottle", "potted plant"}, "potted plant": {"vase"},
	"bottle": {"vase", "cup"}, "cup": {"bowl", "vase"}, "bowl": {"cup"},
	"backpack": {"handbag", "suitcase"}, "handbag": {"backpack"}, "suitcase": {"backpack"},
	"umbrella": {"bottle"}, "bicycle": {"chair"}, "sports ball": {"bowl"}, "teddy bear": {"handbag"},
}

// Detector rates: how often an object's most probable class is a
// look-alike, and how often it is unknown (and the object drops out of
// the map).
const (
	confuseRate = 0.16
	unknownRate = 0.04
)

// room is a furnishing routine: it appends a room's objects at origin o,
// the large ones first so that a cut map keeps whole furniture groups.
type room func(b *builder, o mgl64.Vec2)

type builder struct {
	rng  *rand.Rand
	objs []object
}

func (b *builder) jitter(r float64) float64 { return (b.rng.Float64()*2 - 1) * r }

func (b *builder) size(class string) mgl64.Vec3 {
	s := classSize[class]
	k := 0.85 + 0.3*b.rng.Float64()
	return mgl64.Vec3{round3(s[0] * k), round3(s[1] * k), round3(s[2] * k)}
}

// floor puts a class on the floor near (x, y) of the room and returns its
// index.
func (b *builder) floor(class string, o mgl64.Vec2, x, y float64) int {
	s := b.size(class)
	c := mgl64.Vec3{round3(o[0] + x + b.jitter(0.25)), round3(o[1] + y + b.jitter(0.25)), round3(s[2] / 2)}
	b.objs = append(b.objs, object{class, c, s})
	return len(b.objs) - 1
}

// on puts a class on top of object i.
func (b *builder) on(class string, i int) int {
	sup := b.objs[i]
	s := b.size(class)
	c := mgl64.Vec3{
		round3(sup.center[0] + b.jitter(max(0, sup.size[0]/2-s[0]/2)*0.8)),
		round3(sup.center[1] + b.jitter(max(0, sup.size[1]/2-s[1]/2)*0.8)),
		round3(sup.center[2] + sup.size[2]/2 + s[2]/2),
	}
	b.objs = append(b.objs, object{class, c, s})
	return len(b.objs) - 1
}

func (b *builder) chance(p float64) bool { return b.rng.Float64() < p }

func (b *builder) pick(classes ...string) string { return classes[b.rng.IntN(len(classes))] }

// Rooms are 5 m squares; the furnishing routines place things by hand
// with a little jitter, the way rooms are usually laid out.
var rooms = []room{
	func(b *builder, o mgl64.Vec2) { // kitchen
		b.floor("refrigerator", o, 0.5, 0.5)
		c1 := b.floor("cabinet", o, 1.5, 0.35)
		oven := b.floor("oven", o, 2.4, 0.4)
		_ = oven
		c2 := b.floor("cabinet", o, 3.3, 0.35)
		table := b.floor("dining table", o, 2.5, 3.0)
		for k := range 2 + b.rng.IntN(3) {
			b.floor("chair", o, 1.7+0.8*float64(k%3), 2.3+1.4*float64(k/3))
		}
		b.on("sink", b.pick2(c1, c2))
		if b.chance(0.6) {
			b.on("microwave", c2) // beside the oven
		} else {
			far := b.floor("cabinet", o, 4.6, 4.4)
			b.on("microwave", far)
		}
		if b.chance(0.5) {
			b.on("toaster", c1)
		}
		for range 1 + b.rng.IntN(3) {
			b.on(b.pick("cup", "bowl", "bottle", "book", "vase"), table)
		}
		b.on(b.pick("cup", "bowl", "bottle"), c1)
	},
	func(b *builder, o mgl64.Vec2) { // living room
		couch := b.floor("couch", o, 2.5, 1.0)
		stand := b.floor("cabinet", o, 2.5, 4.5)
		b.on("tv", stand)
		if b.chance(0.7) {
			b.floor("chair", o, 4.2, 2.5)
		}
		b.floor("lamp", o, 0.6, 0.8)
		shelf := b.floor("shelf", o, 0.4, 3.5)
		for range 1 + b.rng.IntN(3) {
			b.on("book", shelf)
		}
		if b.chance(0.6) {
			b.on("remote", couch)
		} else {
			b.on("remote", stand)
		}
		b.floor("potted plant", o, 4.5, 4.5)
		if b.chance(0.5) {
			b.on("cell phone", couch)
		}
		b.on(b.pick("vase", "clock"), stand)
	},
	func(b *builder, o mgl64.Vec2) { // bedroom
		bed := b.floor("bed", o, 2.5, 1.2)
		night := b.floor("cabinet", o, 1.0, 0.4)
		b.on(b.pick("lamp", "clock"), night)
		b.on(b.pick("book", "cell phone"), night)
		if b.chance(0.6) {
			b.floor("chair", o, 4.2, 3.8)
		}
		b.floor(b.pick("backpack", "suitcase"), o, 4.4, 0.6)
		if b.chance(0.5) {
			b.on("teddy bear", bed)
		}
		b.floor("shelf", o, 0.4, 4.4)
		if b.chance(0.5) {
			b.floor("handbag", o, 3.5, 4.4)
		}
	},
	func(b *builder, o mgl64.Vec2) { // study
		desk := b.floor("desk", o, 2.5, 0.5)
		b.floor("chair", o, 2.5, 1.2)
		b.on("laptop", desk)
		b.on("keyboard", desk)
		b.on("mouse", desk)
		shelf := b.floor("shelf", o, 4.5, 2.5)
		b.on("book", shelf)
		b.floor("lamp", o, 0.6, 0.6)
		for range b.rng.IntN(3) {
			b.on(b.pick("cup", "book", "cell phone", "bottle"), desk)
		}
		b.floor("backpack", o, 0.6, 4.4)
		if b.chance(0.5) {
			b.floor("potted plant", o, 4.5, 4.5)
		}
	},
	func(b *builder, o mgl64.Vec2) { // bathroom
		b.floor("toilet", o, 0.5, 0.5)
		vanity := b.floor("cabinet", o, 2.0, 0.3)
		b.on("sink", vanity)
		b.on("bottle", vanity)
		if b.chance(0.5) {
			b.floor("potted plant", o, 4.0, 4.0)
		}
	},
	func(b *builder, o mgl64.Vec2) { // hall
		bench := b.floor("bench", o, 2.5, 0.4)
		b.floor("umbrella", o, 0.4, 0.4)
		if b.chance(0.6) {
			b.floor("bicycle", o, 4.0, 2.5)
		}
		b.floor("shelf", o, 0.4, 3.0)
		if b.chance(0.5) {
			b.on("handbag", bench)
		}
		b.floor("sports ball", o, 2.0, 3.5)
		b.floor("clock", o, 4.5, 4.6)
		if b.chance(0.4) {
			b.floor("suitcase", o, 3.5, 4.5)
		}
	},
}

func (b *builder) pick2(i, j int) int {
	if b.rng.IntN(2) == 0 {
		return i
	}
	return j
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Generate builds built-in map number index of n real objects for a seed.
// The rooms come in a shuffled order on a grid of 6 m cells until there
// are n objects (the last room is cut short); then a simulated detector
// observes every object and writes a Voxeland file, with a few unknown
// blobs (walls, clutter) added. Map is that file read back.
func Generate(seed uint64, index, n int) Generated {
	rng := rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+1))
	b := &builder{rng: rng}
	order := rng.Perm(len(rooms))
	for r := 0; len(b.objs) < n; r++ {
		o := mgl64.Vec2{float64(r%3) * 6, float64(r/3) * 6}
		rooms[order[r%len(order)]](b, o)
	}
	b.objs = b.objs[:n]

	var blobs []object
	for range 1 + n/12 {
		s := mgl64.Vec3{round3(2 + 4*rng.Float64()), round3(0.1 + 0.3*rng.Float64()), round3(1 + 1.5*rng.Float64())}
		c := mgl64.Vec3{round3(12 * rng.Float64()), round3(6 * rng.Float64()), round3(s[2] / 2)}
		blobs = append(blobs, object{scenes.ClassUnknown, c, s})
	}
	all := append(append([]object{}, b.objs...), blobs...)
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })

	name := fmt.Sprintf("house_%02d", index+1)
	raw := &scenes.SemanticMap{Name: name}
	trueClass := map[string]string{}
	next := 0
	for _, ob := range all {
		id := fmt.Sprintf("obj%d", next)
		next += 1 + rng.IntN(3)
		trueClass[id] = ob.class
		obs, scores := detect(rng, ob)
		raw.Instances = append(raw.Instances, scenes.Instance{
			ID: id, Center: ob.center, Size: ob.size, Observations: obs, Classes: scores,
		})
	}
	var file bytes.Buffer
	if err := scenes.EncodeVoxeland(&file, raw); err != nil {
		panic(fmt.Sprintf("semmap: built-in map %s: %v", name, err)) // the generator's own numbers are finite
	}
	m, err := scenes.DecodeVoxeland(bytes.NewReader(file.Bytes()), name+".json", scenes.VoxelandOptions{})
	if err != nil {
		panic(fmt.Sprintf("semmap: built-in map %s does not read back: %v", name, err))
	}
	truth := &scenes.SemanticMap{Name: name, Instances: make([]scenes.Instance, len(m.Instances))}
	for i, in := range m.Instances {
		t := in
		t.Classes = []scenes.ClassScore{{Class: trueClass[in.ID], P: 1}}
		t.Evidence = 0
		truth.Instances[i] = t
	}
	return Generated{Map: m, True: truth, File: file.Bytes()}
}

// detect simulates the detector on one object: how many frames saw it and
// the evidence for each class (unnormalised, as Voxeland accumulates it).
// Bigger objects are seen more often. Most objects get their class right
// with a look-alike as runner-up; some get the look-alike on top, with
// their true class close behind (which the uncertainty input shows); a
// few end up unknown.
func detect(rng *rand.Rand, ob object) (int, []scenes.ClassScore) {
	extent := max(ob.size[0], ob.size[1], ob.size[2])
	obs := max(3, int(math.Round((20+300*min(1, extent/2))*(0.3+rng.Float64()))))
	total := float64(obs) * (0.2 + 0.7*rng.Float64())
	shares := map[string]float64{}
	look := confusions[ob.class]
	r := rng.Float64()
	switch {
	case ob.class == scenes.ClassUnknown:
		shares[scenes.ClassUnknown] = 0.8 + 0.2*rng.Float64()
		if rng.IntN(2) == 0 {
			shares[randomClass(rng)] += 0.1 * rng.Float64()
		}
	case r < unknownRate:
		shares[scenes.ClassUnknown] = 0.6
		shares[ob.class] = 0.1 + 0.2*rng.Float64()
	case r < unknownRate+confuseRate && len(look) > 0:
		top := look[rng.IntN(len(look))]
		shares[top] = 0.45 + 0.25*rng.Float64()
		shares[ob.class] = 0.2 + 0.15*rng.Float64()
	default:
		shares[ob.class] = 0.55 + 0.45*rng.Float64()
		if len(look) > 0 && rng.IntN(2) == 0 {
			shares[look[0]] += 0.25 * rng.Float64()
		}
	}
	if ob.class != scenes.ClassUnknown && rng.IntN(3) == 0 {
		shares[randomClass(rng)] += 0.05 * rng.Float64()
	}
	var cs []scenes.ClassScore
	for c, s := range shares {
		e := round3(s * total)
		if e <= 0 {
			continue
		}
		cs = append(cs, scenes.ClassScore{Class: c, P: e})
	}
	scenes.SortClasses(cs) // map order must not reach the file
	return obs, cs
}

var classNames = func() []string {
	var out []string
	for _, c := range scenes.MapClasses() {
		out = append(out, c.Name)
	}
	return out
}()

func randomClass(rng *rand.Rand) string { return classNames[rng.IntN(len(classNames))] }
