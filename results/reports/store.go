package reports

import (
	"encoding/binary"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// A store holds a report's records packed: each a few dozen bytes of
// varints, its names kept once in a table, instead of a 712-byte Record
// with strings, maps and slices of its own. A report over a million
// episodes held four gigabytes of Records; packed, they take tens of
// megabytes, and each is unpacked when a section reads it.
//
// What no section reads is not kept: the instruction, the robots'
// messages (their number is), and acted_by. [NewSection]'s own sections
// see records without them too.
type store struct {
	// The records, packed back to back in chunks of chunkSize bytes (a
	// record larger than that gets a chunk of its own): a slice grown by
	// doubling would hold up to twice the bytes, and copy them at each
	// growth.
	chunks [][]byte
	at     []uint64 // where each record starts: its chunk << 32 | its offset there
	names  []string
	ids    map[string]uint64
	// The maps of counts (tool calls, reflection tools), kept once each:
	// a run's records hold a few dozen different ones, and a section
	// that read a record would otherwise make its maps anew each time.
	counts   []map[string]int
	countIDs map[string]uint64
	scratch  []byte // add packs a record here before copying it to its chunk
}

const chunkSize = 1 << 20

func newStore() *store {
	return &store{ids: map[string]uint64{}, counts: []map[string]int{nil}, countIDs: map[string]uint64{"": 0}}
}

// len is the number of records held.
func (s *store) len() int { return len(s.at) }

// bytes are the bytes of record i onward in its chunk.
func (s *store) bytes(i int) []byte {
	at := s.at[i]
	return s.chunks[at>>32][uint32(at):]
}

// add packs r and returns its index.
func (s *store) add(r results.Record) int {
	b := s.scratch[:0]
	var flags uint64
	for i, f := range []bool{r.Asked, r.Success, r.ADA, r.Top1, r.Top2, r.Top3, r.TopAny, r.NoReadableAnswer,
		r.WallMS != 0, r.LatencyP50MS != 0, r.LatencyP95MS != 0} {
		if f {
			flags |= 1 << i
		}
	}
	b = binary.AppendUvarint(b, flags)
	for _, v := range []string{r.Outcome, r.ErrorKind, r.Track, r.Family, r.Perturbation, r.Label, r.OutOfView,
		r.Agent, r.Model, r.Perception, r.Tag, r.Error, r.Dataset, r.Map, r.MapOrigin, r.Query, r.Difficulty} {
		b = binary.AppendUvarint(b, s.id(v))
	}
	b = binary.AppendUvarint(b, r.Seed)
	for _, v := range []int{r.Schema, r.Suite, r.Episode, r.SceneSize, r.Repeat, r.Objects, r.Questions, r.TagCorrect,
		r.Steps, len(r.Messages), r.Attempts, r.Calls, r.InputTokens, r.OutputTokens,
		r.PhantomNodes, r.MissedObjects, r.WrongRelations, r.UnmappedRelations,
		r.Trials, r.SolvedTrial, r.OptimalSteps, r.Reflections, r.RedundantReflections, r.ReflectionTokens,
		r.MapObjects, r.Hallucinated} {
		b = binary.AppendVarint(b, int64(v))
	}
	for _, v := range []float64{r.WallMS, r.LatencyP50MS, r.LatencyP95MS} {
		if v != 0 {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	b = s.appendCounts(b, r.ToolCalls)
	b = s.appendCounts(b, r.ReflectionTools)
	for _, v := range [][]int{r.ReflectionTokenCounts, r.ReflectionTrials} {
		b = binary.AppendUvarint(b, uint64(len(v)))
		for _, x := range v {
			b = binary.AppendVarint(b, int64(x))
		}
	}
	for _, v := range [][]string{r.Answer, r.Truth} {
		b = binary.AppendUvarint(b, uint64(len(v)))
		for _, x := range v {
			b = binary.AppendUvarint(b, s.id(x))
		}
	}
	s.scratch = b
	if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1])+len(b) > cap(s.chunks[len(s.chunks)-1]) {
		s.chunks = append(s.chunks, make([]byte, 0, max(chunkSize, len(b))))
	}
	c := len(s.chunks) - 1
	s.at = append(s.at, uint64(c)<<32|uint64(len(s.chunks[c])))
	s.chunks[c] = append(s.chunks[c], b...)
	return len(s.at) - 1
}

// appendCounts packs a map of counts as the number of the one kept of
// its contents: unpacked records share it, and read it only (records
// hands out copies).
func (s *store) appendCounts(b []byte, m map[string]int) []byte {
	var key []byte
	for _, k := range slices.Sorted(maps.Keys(m)) {
		key = strconv.AppendQuote(key, k)
		key = strconv.AppendInt(key, int64(m[k]), 10)
	}
	id, ok := s.countIDs[string(key)]
	if !ok {
		id = uint64(len(s.counts))
		s.counts = append(s.counts, maps.Clone(m))
		s.countIDs[string(key)] = id
	}
	return binary.AppendUvarint(b, id)
}

func (s *store) id(v string) uint64 {
	if id, ok := s.ids[v]; ok {
		return id
	}
	id := uint64(len(s.names))
	s.names = append(s.names, v)
	s.ids[v] = id
	return id
}

// agentModel unpacks record i's agent and model alone.
func (s *store) agentModel(i int) (agent, model string) {
	d := unpacker{b: s.bytes(i), names: s.names}
	d.uvarint()   // the flags
	for range 7 { // outcome to out_of_view
		d.uvarint()
	}
	return d.name(), d.name()
}

// sortedByKey is the records at idx in the order of their Key. The keys
// are made once a record, not twice a comparison, and dropped after. Two
// records of one key, which would count twice, are an error.
func (s *store) sortedByKey(idx []int32) (recList, error) {
	type keyed struct {
		key string
		i   int32
	}
	keys := make([]keyed, len(idx))
	for n, i := range idx {
		keys[n] = keyed{s.record(int(i)).Key(), i}
	}
	slices.SortFunc(keys, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	out := recList{s: s, idx: idx}
	for n, k := range keys {
		if n > 0 && k.key == keys[n-1].key {
			return recList{}, fmt.Errorf("report: episode %s appears twice", k.key)
		}
		out.idx[n] = k.i
	}
	return out, nil
}

// record unpacks record i.
func (s *store) record(i int) results.Record {
	d := unpacker{b: s.bytes(i), names: s.names}
	var r results.Record
	flags := d.uvarint()
	bit := func(i int) bool { return flags&(1<<i) != 0 }
	r.Asked, r.Success, r.ADA, r.Top1, r.Top2, r.Top3, r.TopAny, r.NoReadableAnswer = bit(0), bit(1), bit(2), bit(3), bit(4), bit(5), bit(6), bit(7)
	for _, p := range []*string{&r.Outcome, &r.ErrorKind, &r.Track, &r.Family, &r.Perturbation, &r.Label, &r.OutOfView,
		&r.Agent, &r.Model, &r.Perception, &r.Tag, &r.Error, &r.Dataset, &r.Map, &r.MapOrigin, &r.Query, &r.Difficulty} {
		*p = d.name()
	}
	r.Seed = d.uvarint()
	var messages int
	for _, p := range []*int{&r.Schema, &r.Suite, &r.Episode, &r.SceneSize, &r.Repeat, &r.Objects, &r.Questions, &r.TagCorrect,
		&r.Steps, &messages, &r.Attempts, &r.Calls, &r.InputTokens, &r.OutputTokens,
		&r.PhantomNodes, &r.MissedObjects, &r.WrongRelations, &r.UnmappedRelations,
		&r.Trials, &r.SolvedTrial, &r.OptimalSteps, &r.Reflections, &r.RedundantReflections, &r.ReflectionTokens,
		&r.MapObjects, &r.Hallucinated} {
		*p = int(d.varint())
	}
	if messages > 0 {
		r.Messages = make([]results.Message, messages)
	}
	for j, p := range []*float64{&r.WallMS, &r.LatencyP50MS, &r.LatencyP95MS} {
		if bit(8 + j) {
			*p = math.Float64frombits(binary.LittleEndian.Uint64(d.b))
			d.b = d.b[8:]
		}
	}
	r.ToolCalls = s.counts[d.uvarint()]
	r.ReflectionTools = s.counts[d.uvarint()]
	for _, p := range []*[]int{&r.ReflectionTokenCounts, &r.ReflectionTrials} {
		if n := int(d.uvarint()); n > 0 {
			*p = make([]int, n)
			for j := range *p {
				(*p)[j] = int(d.varint())
			}
		}
	}
	for _, p := range []*[]string{&r.Answer, &r.Truth} {
		if n := int(d.uvarint()); n > 0 {
			*p = make([]string, n)
			for j := range *p {
				(*p)[j] = d.name()
			}
		}
	}
	return r
}

type unpacker struct {
	b     []byte
	names []string
}

func (d *unpacker) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	d.b = d.b[n:]
	return v
}

func (d *unpacker) varint() int64 {
	v, n := binary.Varint(d.b)
	d.b = d.b[n:]
	return v
}

func (d *unpacker) name() string { return d.names[d.uvarint()] }

// listOf packs recs in a store of their own: how the functions that
// take a slice of records ([Write], [DrawPlots], …) get to the code
// that reads a store.
func listOf(recs []results.Record) recList {
	l := recList{s: newStore(), idx: make([]int32, len(recs))}
	for i, r := range recs {
		l.idx[i] = int32(l.s.add(r))
	}
	return l
}

// allRecords are the records of every unit of rp, unit by unit.
func (rp *reporter) allRecords() iter.Seq[results.Record] {
	return func(yield func(results.Record) bool) {
		for _, u := range rp.units {
			for r := range u.recs.all() {
				if !yield(r) {
					return
				}
			}
		}
	}
}

// recList is some of a store's records, in an order of their own: a unit's,
// sorted by key, or those of it a section keeps.
type recList struct {
	s   *store
	idx []int32
}

func (l recList) len() int { return len(l.idx) }

// all unpacks the records in order. Their maps are the store's: read
// them, never write.
func (l recList) all() iter.Seq[results.Record] {
	return func(yield func(results.Record) bool) {
		for _, i := range l.idx {
			if !yield(l.s.record(int(i))) {
				return
			}
		}
	}
}

// at unpacks the list's i-th record.
func (l recList) at(i int) results.Record { return l.s.record(int(l.idx[i])) }

// filter is the records of l that keep accepts, in l's order.
func (l recList) filter(keep func(results.Record) bool) recList {
	out := recList{s: l.s}
	for _, i := range l.idx {
		if keep(l.s.record(int(i))) {
			out.idx = append(out.idx, i)
		}
	}
	if len(out.idx) == len(l.idx) {
		return l
	}
	return out
}

// any reports whether a record of l satisfies f.
func (l recList) any(f func(results.Record) bool) bool {
	for r := range l.all() {
		if f(r) {
			return true
		}
	}
	return false
}

// records unpacks l whole, for what takes a slice (the stats functions, a
// track's own section or plot); a section calls it on the few records it
// keeps, not on a unit's.
func (l recList) records() []results.Record {
	out := make([]results.Record, len(l.idx))
	for n, i := range l.idx {
		r := l.s.record(int(i))
		r.ToolCalls, r.ReflectionTools = maps.Clone(r.ToolCalls), maps.Clone(r.ReflectionTools)
		out[n] = r
	}
	return out
}
