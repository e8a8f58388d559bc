package cassette

import (
	"embed"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Seed dictionaries. A store as a recorder first writes it has no
// dictionary of its own: [Compact] trains one on the store once there is
// something to train on. Until then a recording would be compressed
// alone, about a third of its JSON, though most of it is a workflow's
// prompt, the same in every store. So the package ships a dictionary for
// each track, trained on the simulated model's recordings of the track's
// workflows (seed/TRACK.zdict; cmd/ambibench/cli's TestSeedDictionaries
// makes them and says when they are stale), and a recorder writing into a
// store with no current dictionary compresses each recording with the
// seed it resembles most, copying that seed into DIR/dict first. The
// choice is made from the recording's bytes alone, so a recording is the
// same file whichever shard, worker or process writes it, and whenever.
//
// Why not train in the recorder, on its first recordings: a run plays its
// grid in order (cell, then agent), so the first recordings are all of one
// workflow (on BenchmarkCassetteStore's grid the first 2,900 or so are
// CLARA's, most of them its calibration's), and a dictionary trained on
// the first 50 to 2,400 kept that grid at 7 to 9 KB an episode, against
// 2.6 KB with a seed; retraining as the recordings grew (at 1,000 and
// 4,000 recordings, each time on a draw of all so far) still gave 4.5 KB.
// Which recordings come first also depends on the timing of the workers
// and shards, so neither the dictionary nor the files would be the same
// from one run to the next.
//
// What a seed costs: 1.5 MB of binary for the three, and a store's
// first recording of a track copies its seed (512 KiB) into the store,
// more than a store of a few dozen episodes saves by it. What it does not
// know is a real model's words: with the model's own (its replies, and
// the turns of them later requests carry) scrambled letter for letter,
// the grid kept 2.9 KB an episode of recordings with the seed, against
// 2.1 KB as the simulated model wrote them, 12.7 KB compressed alone and
// 2.0 KB with a dictionary trained on the store ([Compact] weighs that).
//
//go:embed seed/*.zdict
var seedFiles embed.FS

// seedDir is where the seeds are, in seedFiles and in the source tree.
const seedDir = "seed"

// A seed is a dictionary shipped with the package.
type seed struct {
	name string // its file under seed/: the track it was trained on
	id   uint32
	data []byte
	// The sampled shingles of its history, sorted (see shingles).
	shingles []uint64

	enc  func() (*zstd.Encoder, error)
	path string // for errors
}

// encoder returns the encoder of seed's recordings, made once for the
// process: every store a process writes shares it.
func (sd *seed) encoder() (*zstd.Encoder, error) { return sd.enc() }

// seedSet is the seeds a store may compress a recording with.
type seedSet struct {
	seeds []*seed // in the order of their names
	// The shingles every seed holds, sorted: they tell no seed from
	// another, and are mostly the JSON every recording shares (the field
	// names, the indentation), which would make a short recording of
	// anything look like every seed.
	common []uint64
}

// loadSeeds reads the seeds of files (seed/*.zdict).
func loadSeeds(files embed.FS) (*seedSet, error) {
	entries, err := files.ReadDir(seedDir)
	if err != nil {
		return nil, err
	}
	var seeds []*seed
	ids := map[uint32]string{}
	for _, e := range entries {
		name := path.Join(seedDir, e.Name())
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sd, err := newSeed(name, data)
		if err != nil {
			return nil, err
		}
		if other, ok := ids[sd.id]; ok {
			return nil, fmt.Errorf("seed dictionaries %s and %s: both of ID %08x", other, name, sd.id)
		}
		ids[sd.id] = name
		seeds = append(seeds, sd)
	}
	return newSeedSet(seeds), nil
}

// newSeedSet returns the set of seeds.
func newSeedSet(seeds []*seed) *seedSet {
	set := &seedSet{seeds: seeds}
	if len(seeds) < 2 {
		return set
	}
	for _, h := range seeds[0].shingles {
		in := true
		for _, sd := range seeds[1:] {
			if _, ok := slices.BinarySearch(sd.shingles, h); !ok {
				in = false
				break
			}
		}
		if in {
			set.common = append(set.common, h)
		}
	}
	return set
}

// newSeed reads the seed dictionary data, its file called name.
func newSeed(name string, data []byte) (*seed, error) {
	d, err := zstd.InspectDictionary(data)
	if err != nil {
		return nil, fmt.Errorf("seed dictionary %s: %v", name, err)
	}
	if id := d.ID(); id < minDictID || id > maxDictID {
		return nil, fmt.Errorf("seed dictionary %s: ID %08x, one zstd reserves", name, id)
	}
	sh := shingles(d.Content(), nil)
	slices.Sort(sh)
	sd := &seed{name: path.Base(name), id: d.ID(), data: data, shingles: slices.Compact(sh), path: name}
	sd.enc = sync.OnceValues(func() (*zstd.Encoder, error) { return newEncoder(data) })
	return sd, nil
}

// defaultSeeds are the seeds of the package, read once.
var defaultSeeds = sync.OnceValues(func() (*seedSet, error) { return loadSeeds(seedFiles) })

// A shingle is a hash of 12 bytes; those whose hash ends in five zero
// bits are kept, wherever they are, so that a recording and a history
// holding the same text keep the same shingles of it. One in 32 is
// enough to tell the tracks apart: on 11,181 sim recordings of the three
// tracks (BenchmarkCassetteStore's grid, and the household and semmap
// ones of the seeds' corpus), the seed sharing the most shingles with a
// recording (those every seed holds aside) compressed it as small as any
// seed did; its own track's seed shared 36% of them at the least (85% or
// more with nine in ten), another track's 35% at the most. It costs a
// pass over the recording and a lookup every 32 bytes, against three
// times the compression for trying each seed.
const (
	shingleLen  = 12
	shingleMask = 31
)

// shingles appends the kept shingles of b to out.
func shingles(b []byte, out []uint64) []uint64 {
	for i := 0; i+shingleLen <= len(b); i++ {
		h := binary.LittleEndian.Uint64(b[i:])*0x9E3779B185EBCA87 ^ uint64(binary.LittleEndian.Uint32(b[i+8:]))*0xC2B2AE3D27D4EB4F
		h ^= h >> 29
		if h&shingleMask == 0 {
			out = append(out, h)
		}
	}
	return out
}

// pick returns the seed that data, a recording's JSON, shares the most
// shingles with (those every seed holds aside), the first in order on a
// tie, or nil when none shares a third of them: a recording unlike
// every seed (another suite's, or too short to tell) is not worth a
// dictionary in the store. It depends on data and the set alone.
func (set *seedSet) pick(data []byte) *seed {
	if set == nil {
		return nil
	}
	var buf [256]uint64
	sh := shingles(data, buf[:0])
	sh = slices.DeleteFunc(sh, func(h uint64) bool {
		_, ok := slices.BinarySearch(set.common, h)
		return ok
	})
	var best *seed
	bestHits := 0
	for _, sd := range set.seeds {
		hits := 0
		for _, h := range sh {
			if _, ok := slices.BinarySearch(sd.shingles, h); ok {
				hits++
			}
		}
		if hits > bestHits {
			best, bestHits = sd, hits
		}
	}
	if len(sh) == 0 || 3*bestHits < len(sh) {
		return nil
	}
	return best
}
