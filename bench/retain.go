package bench

import (
	"maps"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"github.com/ambibench/ambibench/results"
)

// retained holds the records a run keeps for its caller, which [Run]
// returns when it ends (the summary reads them all), in a form the
// garbage collector does not read: each record is a [packedRecord],
// which holds no pointer, and its strings, maps and lists are numbers
// into tables of the distinct ones.
//
// [Run] keeps every record until it ends ([Stream] keeps none). Held as results.Record, 28,600
// tabletop records were a 17.7 MB array of about thirty pointers each
// that every collection scanned whole, the largest part of the heap the
// collector marked; at --concurrency 2, where no core is free to mark,
// the mark phase grew with it, and the workers ran longer with the write
// barrier on. Packed, a record is about half the size and costs the
// collector nothing; the tables are small, since the records of a run
// repeat their names, instructions and tool counts.
//
// Equal maps and lists are kept once, so the records [retained.records]
// gives share them: a caller that changes one copies it first.
type retained struct {
	packed []packedRecord // in the order kept

	strs   table[string]
	counts table[map[string]int]
	lists  table[[]string]
	ints   table[[]int]
	msgs   [][]results.Message // msgs[0] is nil; not shared: each is one episode's talk
	key    []byte
}

// table numbers the distinct values of one kind by a key of their
// contents; number 0 is the zero value (nil, or "").
type table[T any] struct {
	vals []T
	ix   map[string]uint32
}

func newTable[T any]() table[T] {
	var zero T
	return table[T]{vals: []T{zero}, ix: map[string]uint32{}}
}

// number is the number of v, whose contents make key: that of an equal
// value kept before, or a new one.
func (t *table[T]) number(key []byte, v T) uint32 {
	if n, ok := t.ix[string(key)]; ok {
		return n
	}
	n := uint32(len(t.vals))
	t.vals = append(t.vals, v)
	t.ix[string(key)] = n
	return n
}

// packedRecord is a results.Record without pointers: every string, map
// and list is its number in the tables of [retained]. Its fields are
// Record's, in Record's order; TestPackedRecordRoundTrips fails on a
// Record field that pack or unpack leaves out.
type packedRecord struct {
	Schema, Suite                                            int
	Outcome, ErrorKind, Track, Family, Perturbation, Label   uint32
	OutOfView, Agent, Model, Perception                      uint32
	Seed                                                     uint64
	Episode, SceneSize, Repeat, Objects                      int
	Instruction                                              uint32
	Asked                                                    bool
	Tag                                                      uint32
	Questions, TagCorrect                                    int
	Success, ADA                                             bool
	Steps                                                    int
	ToolCalls, Messages, ActedBy, Error                      uint32
	Attempts                                                 int
	WallMS                                                   float64
	Calls, InputTokens, OutputTokens                         int
	LatencyP50MS, LatencyP95MS                               float64
	PhantomNodes, MissedObjects                              int
	WrongRelations, UnmappedRelations                        int
	Trials, SolvedTrial, OptimalSteps, Reflections           int
	RedundantReflections, ReflectionTokens                   int
	ReflectionTools, ReflectionTokenCounts, ReflectionTrials uint32
	Dataset, Map, MapOrigin                                  uint32
	MapObjects                                               int
	Query, Difficulty, Answer, Truth                         uint32
	Top1, Top2, Top3, TopAny                                 bool
	Hallucinated                                             int
	NoReadableAnswer                                         bool
}

func newRetained() *retained {
	return &retained{
		strs: newTable[string](), counts: newTable[map[string]int](),
		lists: newTable[[]string](), ints: newTable[[]int](),
		msgs: [][]results.Message{nil},
	}
}

// keep packs r after the records kept before it.
func (k *retained) keep(r *results.Record) {
	k.packed = append(k.packed, packedRecord{
		Schema: r.Schema, Suite: r.Suite,
		Outcome: k.str(r.Outcome), ErrorKind: k.str(r.ErrorKind), Track: k.str(r.Track),
		Family: k.str(r.Family), Perturbation: k.str(r.Perturbation), Label: k.str(r.Label),
		OutOfView: k.str(r.OutOfView), Agent: k.str(r.Agent), Model: k.str(r.Model), Perception: k.str(r.Perception),
		Seed:    r.Seed,
		Episode: r.Episode, SceneSize: r.SceneSize, Repeat: r.Repeat, Objects: r.Objects,
		Instruction: k.str(r.Instruction),
		Asked:       r.Asked,
		Tag:         k.str(r.Tag),
		Questions:   r.Questions, TagCorrect: r.TagCorrect,
		Success: r.Success, ADA: r.ADA,
		Steps:     r.Steps,
		ToolCalls: k.count(r.ToolCalls), Messages: k.talk(r.Messages), ActedBy: k.list(r.ActedBy), Error: k.str(r.Error),
		Attempts: r.Attempts,
		WallMS:   r.WallMS,
		Calls:    r.Calls, InputTokens: r.InputTokens, OutputTokens: r.OutputTokens,
		LatencyP50MS: r.LatencyP50MS, LatencyP95MS: r.LatencyP95MS,
		PhantomNodes: r.PhantomNodes, MissedObjects: r.MissedObjects,
		WrongRelations: r.WrongRelations, UnmappedRelations: r.UnmappedRelations,
		Trials: r.Trials, SolvedTrial: r.SolvedTrial, OptimalSteps: r.OptimalSteps, Reflections: r.Reflections,
		RedundantReflections: r.RedundantReflections, ReflectionTokens: r.ReflectionTokens,
		ReflectionTools: k.count(r.ReflectionTools), ReflectionTokenCounts: k.intList(r.ReflectionTokenCounts), ReflectionTrials: k.intList(r.ReflectionTrials),
		Dataset: k.str(r.Dataset), Map: k.str(r.Map), MapOrigin: k.str(r.MapOrigin),
		MapObjects: r.MapObjects,
		Query:      k.str(r.Query), Difficulty: k.str(r.Difficulty), Answer: k.list(r.Answer), Truth: k.list(r.Truth),
		Top1: r.Top1, Top2: r.Top2, Top3: r.Top3, TopAny: r.TopAny,
		Hallucinated:     r.Hallucinated,
		NoReadableAnswer: r.NoReadableAnswer,
	})
}

// unpack is the record packed as p.
func (k *retained) unpack(p *packedRecord) results.Record {
	return results.Record{
		Schema: p.Schema, Suite: p.Suite,
		Outcome: k.strs.vals[p.Outcome], ErrorKind: k.strs.vals[p.ErrorKind], Track: k.strs.vals[p.Track],
		Family: k.strs.vals[p.Family], Perturbation: k.strs.vals[p.Perturbation], Label: k.strs.vals[p.Label],
		OutOfView: k.strs.vals[p.OutOfView], Agent: k.strs.vals[p.Agent], Model: k.strs.vals[p.Model], Perception: k.strs.vals[p.Perception],
		Seed:    p.Seed,
		Episode: p.Episode, SceneSize: p.SceneSize, Repeat: p.Repeat, Objects: p.Objects,
		Instruction: k.strs.vals[p.Instruction],
		Asked:       p.Asked,
		Tag:         k.strs.vals[p.Tag],
		Questions:   p.Questions, TagCorrect: p.TagCorrect,
		Success: p.Success, ADA: p.ADA,
		Steps:     p.Steps,
		ToolCalls: k.counts.vals[p.ToolCalls], Messages: k.msgs[p.Messages], ActedBy: k.lists.vals[p.ActedBy], Error: k.strs.vals[p.Error],
		Attempts: p.Attempts,
		WallMS:   p.WallMS,
		Calls:    p.Calls, InputTokens: p.InputTokens, OutputTokens: p.OutputTokens,
		LatencyP50MS: p.LatencyP50MS, LatencyP95MS: p.LatencyP95MS,
		PhantomNodes: p.PhantomNodes, MissedObjects: p.MissedObjects,
		WrongRelations: p.WrongRelations, UnmappedRelations: p.UnmappedRelations,
		Trials: p.Trials, SolvedTrial: p.SolvedTrial, OptimalSteps: p.OptimalSteps, Reflections: p.Reflections,
		RedundantReflections: p.RedundantReflections, ReflectionTokens: p.ReflectionTokens,
		ReflectionTools: k.counts.vals[p.ReflectionTools], ReflectionTokenCounts: k.ints.vals[p.ReflectionTokenCounts], ReflectionTrials: k.ints.vals[p.ReflectionTrials],
		Dataset: k.strs.vals[p.Dataset], Map: k.strs.vals[p.Map], MapOrigin: k.strs.vals[p.MapOrigin],
		MapObjects: p.MapObjects,
		Query:      k.strs.vals[p.Query], Difficulty: k.strs.vals[p.Difficulty], Answer: k.lists.vals[p.Answer], Truth: k.lists.vals[p.Truth],
		Top1: p.Top1, Top2: p.Top2, Top3: p.Top3, TopAny: p.TopAny,
		Hallucinated:     p.Hallucinated,
		NoReadableAnswer: p.NoReadableAnswer,
	}
}

// records unpacks the records kept, in the order kept.
//
// Their array is made here, at the end, so that the collector never
// scanned it while the run went on (made as the run started, its zeros
// were 17.7 MB that each collection read, and live bytes that brought
// the next collection nearer: 52 cycles instead of 43 at --concurrency 2
// over make bench's 28,600 tabletop records). But the heap is then full
// of garbage, which the collector let grow to the memory limit, and an
// array that large would come on top of it: the run's peak resident
// memory rose by its size. A collection first frees room for it (1.3 ms
// of wall time at the end of that run), done only for an array of
// collectBefore bytes or more.
func (k *retained) records() []results.Record {
	n := len(k.packed)
	if uintptr(n)*unsafe.Sizeof(results.Record{}) >= collectBefore {
		runtime.GC()
	}
	out := make([]results.Record, 0, n)
	for i := range k.packed {
		out = append(out, k.unpack(&k.packed[i]))
	}
	return out
}

// collectBefore is the size of a records array that [retained.records]
// collects before making: 8 MiB, about 13,000 records.
const collectBefore = 8 << 20

func (k *retained) str(s string) uint32 {
	if s == "" {
		return 0
	}
	if n, ok := k.strs.ix[s]; ok { // the common case, without making a key
		return n
	}
	return k.strs.number([]byte(s), s)
}

// count numbers a map of counts by its contents; a nil map is 0 and an
// empty one is not, since the JSON of the two differs.
func (k *retained) count(m map[string]int) uint32 {
	if m == nil {
		return 0
	}
	k.key = k.key[:0]
	for _, name := range slices.Sorted(maps.Keys(m)) {
		k.key = appendText(k.key, name)
		k.key = strconv.AppendInt(k.key, int64(m[name]), 10)
		k.key = append(k.key, ' ')
	}
	return k.counts.number(k.key, m)
}

// numberList numbers a list by its contents, each element written into
// the key by add; nil is 0, as for count.
func numberList[T any](k *retained, t *table[[]T], l []T, add func([]byte, T) []byte) uint32 {
	if l == nil {
		return 0
	}
	k.key = k.key[:0]
	for _, v := range l {
		k.key = add(k.key, v)
	}
	return t.number(k.key, l)
}

func (k *retained) list(l []string) uint32 { return numberList(k, &k.lists, l, appendText) }

func (k *retained) intList(l []int) uint32 {
	return numberList(k, &k.ints, l, func(key []byte, v int) []byte {
		return append(strconv.AppendInt(key, int64(v), 10), ' ')
	})
}

// talk keeps an episode's messages; nil is 0.
func (k *retained) talk(m []results.Message) uint32 {
	if m == nil {
		return 0
	}
	k.msgs = append(k.msgs, m)
	return uint32(len(k.msgs) - 1)
}

// appendText appends s to a key with its length first, so that no two
// lists of strings make the same key, whatever bytes the strings hold.
func appendText(key []byte, s string) []byte {
	key = strconv.AppendInt(key, int64(len(s)), 10)
	key = append(key, ':')
	return append(key, s...)
}
