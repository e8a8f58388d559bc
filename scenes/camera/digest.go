package camera

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"

	"github.com/ambibench/ambibench/scenes"
)

// Digest returns a hex SHA-256 over what fixes the image of objs under opt:
// Version, the options (defaults filled in), and each object's id, class,
// colour and the IEEE bits of its pose and extent as given. Other
// attributes and the Region field do not change the image and are left
// out; nothing computed is hashed, so the digest is the same on every
// architecture.
func Digest(objs []scenes.Object, opt Options) string {
	d := newDigester(opt)
	d.int(int64(len(objs)))
	for i := range objs {
		ob := &objs[i]
		d.str(ob.ID)
		d.str(ob.Class)
		d.str(ob.Color())
		d.floats(ob.Pose[:])
		d.floats(ob.Extent[:])
	}
	return hex.EncodeToString(d.h.Sum(nil))
}

// SceneDigest is Digest for a scene named by what made it rather than by
// its objects: a table drawn by a generator or settled by a physics
// engine has poses that are themselves computed, and so may differ in
// their last bits between architectures, while what drew them (a suite
// version, a seed, a cell, an episode index) does not. The name must fix
// the objects; the digest is over Version, the options and the name.
func SceneDigest(scene string, opt Options) string {
	d := newDigester(opt)
	d.str("scene")
	d.str(scene)
	return hex.EncodeToString(d.h.Sum(nil))
}

// newDigester starts a digest with Version and the options, defaults
// filled in.
func newDigester(opt Options) digester {
	o := opt.resolved()
	d := digester{h: sha256.New()}
	d.str("ambibench/scenes/camera")
	d.str(Version)
	d.int(int64(o.Width))
	d.int(int64(o.Height))
	d.str(string(o.View))
	d.floats(o.Eye[:])
	d.floats(o.Target[:])
	d.floats([]float64{o.FovY, o.OrthoHeight})
	d.bool(o.TwoRobots)
	d.str(o.Robot)
	d.bool(o.Partial)
	return d
}

// digester writes values unambiguously: strings with their length first.
type digester struct {
	h   hash.Hash
	buf [8]byte
}

func (d *digester) int(v int64) {
	binary.BigEndian.PutUint64(d.buf[:], uint64(v))
	d.h.Write(d.buf[:])
}

func (d *digester) str(s string) {
	d.int(int64(len(s)))
	d.h.Write([]byte(s))
}

func (d *digester) bool(b bool) {
	if b {
		d.int(1)
	} else {
		d.int(0)
	}
}

func (d *digester) floats(fs []float64) {
	for _, f := range fs {
		binary.BigEndian.PutUint64(d.buf[:], math.Float64bits(f))
		d.h.Write(d.buf[:])
	}
}
