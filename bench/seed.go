package bench

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
)

// EpisodeSeed derives the seed of one episode's random stream from the
// suite seed and the names that fix the episode. It is a stable hash, so
// the same inputs give the same seed on every machine and every run.
func EpisodeSeed(suite uint64, parts ...any) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], suite)
	h.Write(buf[:])
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			h.Write([]byte(v))
		case int:
			binary.LittleEndian.PutUint64(buf[:], uint64(v))
			h.Write(buf[:])
		case uint64:
			binary.LittleEndian.PutUint64(buf[:], v)
			h.Write(buf[:])
		default:
			panic("bench: EpisodeSeed takes strings and integers")
		}
		h.Write([]byte{0}) // keeps ("ab","c") apart from ("a","bc")
	}
	return h.Sum64()
}

// NewRand returns the random stream of a seed made by EpisodeSeed.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// AgentSeed is the seed of a job's agent: EpisodeSeed(opts.Seed, parts...),
// with the job's repeat appended when it is above 0, so that each repeat
// of a --repeats run seeds its agent afresh while repeat 0 (and a run
// without repeats) keeps the seed it always had. The episode itself — its
// world and instruction — is seeded without the repeat and is the same in
// every repeat.
func AgentSeed(job Job, opts Options, parts ...any) uint64 {
	if job.Repeat > 0 {
		parts = append(parts[:len(parts):len(parts)], "repeat", job.Repeat)
	}
	return EpisodeSeed(opts.Seed, parts...)
}
