package compare

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// A FieldDiff is a scored field in which two paired records differ.
type FieldDiff struct {
	Key, Field, Base, New string // Key is the PlainKey of BASE's record
}

func (d FieldDiff) String() string {
	return fmt.Sprintf("%s: %s is %s in BASE, %s in NEW", d.Key, d.Field, d.Base, d.New)
}

// unscoredFields are the fields [ExactDiff] ignores: the model, which a
// comparison compares, and the timings, which no two runs share.
var unscoredFields = map[string]bool{"model": true, "wall_ms": true, "latency_p50_ms": true, "latency_p95_ms": true}

// scoredField is a field of a record that [ExactDiff] compares.
type scoredField struct {
	index int
	name  string
}

var scoredFields = func() []scoredField {
	var out []scoredField
	rt := reflect.TypeFor[results.Record]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if !unscoredFields[name] {
			out = append(out, scoredField{i, name})
		}
	}
	return out
}()

// ExactDiff pairs the records as [Runs] does and lists every field,
// but the model and the timings, in which a pair differs, by key and then
// by field in the record's order. Records without a partner are not
// fields of a pair and are not listed; Runs refuses them. Of an episode
// given twice on one side, the later record is the one paired. It is a
// [Stream], exact, given both slices side by side.
func ExactDiff(base, new []results.Record) []FieldDiff {
	s := NewStream(Options{})
	s.Exact(-1)
	feed(s, lastOfEach(base), lastOfEach(new))
	_, diffs := s.ExactDiffs()
	return diffs
}

// lastOfEach drops the records of recs whose episode (EpisodeKey) a
// later record has.
func lastOfEach(recs []results.Record) []results.Record {
	last := make(map[string]int, len(recs))
	for i, r := range recs {
		last[r.EpisodeKey()] = i
	}
	if len(last) == len(recs) {
		return recs
	}
	out := make([]results.Record, 0, len(last))
	for i, r := range recs {
		if last[r.EpisodeKey()] == i {
			out = append(out, r)
		}
	}
	return out
}

// ExactDiffs are the differences an exact stream ([Stream.Exact]) found:
// how many in all, and the first of them, as many as it keeps, in
// [ExactDiff]'s order.
func (s *Stream) ExactDiffs() (n int, first []FieldDiff) {
	slices.SortStableFunc(s.first, compareKeyed)
	for _, d := range s.first {
		first = append(first, d.FieldDiff)
	}
	return s.diffs, first
}

// keyedDiff is a FieldDiff with its place in ExactDiff's order.
type keyedDiff struct {
	episode string // the pair's EpisodeKey
	field   int
	FieldDiff
}

func compareKeyed(x, y keyedDiff) int {
	return cmp.Or(strings.Compare(x.episode, y.episode), cmp.Compare(x.field, y.field))
}

// diffPair adds the fields in which BASE's record x and NEW's y differ.
// With a number to keep, the kept ones stay in order, so that a pair
// after the last of them is only counted.
func (s *Stream) diffPair(x, y *results.Record) {
	vx, vy := reflect.ValueOf(x).Elem(), reflect.ValueOf(y).Elem()
	var episode string
	added := false
	for _, f := range scoredFields {
		fx, fy := vx.Field(f.index), vy.Field(f.index)
		if equalField(fx, fy) {
			continue
		}
		s.diffs++
		if s.keep == 0 {
			continue
		}
		if episode == "" {
			episode = x.EpisodeKey()
			if s.keep > 0 && len(s.first) == s.keep && episode > s.first[s.keep-1].episode {
				s.diffs += countDiffs(vx, vy, f.index)
				return
			}
		}
		s.first = append(s.first, keyedDiff{episode, f.index, FieldDiff{Key: x.PlainKey(), Field: f.name,
			Base: fmt.Sprint(fx.Interface()), New: fmt.Sprint(fy.Interface())}})
		added = true
	}
	if added && s.keep > 0 {
		slices.SortStableFunc(s.first, compareKeyed)
		s.first = slices.Delete(s.first, min(s.keep, len(s.first)), len(s.first))
	}
}

// countDiffs counts the scored fields after the one of index after in
// which vx and vy differ.
func countDiffs(vx, vy reflect.Value, after int) int {
	n := 0
	for _, f := range scoredFields {
		if f.index > after && !equalField(vx.Field(f.index), vy.Field(f.index)) {
			n++
		}
	}
	return n
}

// equalField is reflect.DeepEqual of two fields, without the interfaces
// and the map of visits DeepEqual makes: most fields are plain, and most
// slices empty.
func equalField(x, y reflect.Value) bool {
	switch x.Kind() {
	case reflect.String:
		return x.String() == y.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return x.Int() == y.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return x.Uint() == y.Uint()
	case reflect.Bool:
		return x.Bool() == y.Bool()
	case reflect.Float32, reflect.Float64:
		return x.Float() == y.Float()
	case reflect.Slice:
		if x.IsNil() != y.IsNil() || x.Len() != y.Len() {
			return false
		}
		if x.Len() == 0 || x.UnsafePointer() == y.UnsafePointer() {
			return true
		}
		for i := range x.Len() {
			if !equalField(x.Index(i), y.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range x.NumField() {
			if !equalField(x.Field(i), y.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if x.IsNil() != y.IsNil() || x.Len() != y.Len() {
			return false
		}
		if a, ok := x.Interface().(map[string]int); ok {
			return maps.Equal(a, y.Interface().(map[string]int))
		}
	}
	return reflect.DeepEqual(x.Interface(), y.Interface())
}

// packRecord packs a record, every field, into bytes that unpackRecord
// reads back into an equal record (reflect.DeepEqual: a nil map or slice
// stays nil, an empty one empty): what an exact Stream holds of a
// record until its partner comes, a few hundred bytes where the record
// takes a few kilobytes.
func packRecord(r *results.Record) []byte {
	return appendPacked(nil, reflect.ValueOf(r).Elem())
}

func unpackRecord(b []byte) results.Record {
	var r results.Record
	if rest := readPacked(b, reflect.ValueOf(&r).Elem()); len(rest) != 0 {
		panic(fmt.Sprintf("compare: %d bytes left over after a packed record", len(rest)))
	}
	return r
}

// appendPacked appends v: a number as a varint, a string by its length, a
// slice or a map by its length plus one (0 for nil) and its elements, a
// struct field by field.
func appendPacked(b []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		return append(b, v.String()...)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return binary.AppendUvarint(b, v.Uint())
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case reflect.Float32, reflect.Float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		for i := range v.Len() {
			b = appendPacked(b, v.Index(i))
		}
		return b
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		for it := v.MapRange(); it.Next(); {
			b = appendPacked(b, it.Key())
			b = appendPacked(b, it.Value())
		}
		return b
	case reflect.Struct:
		for i := range v.NumField() {
			b = appendPacked(b, v.Field(i))
		}
		return b
	}
	panic("compare: a record field of kind " + v.Kind().String() + " cannot be packed")
}

// readPacked reads into v what appendPacked wrote of it and returns the
// bytes after it.
func readPacked(b []byte, v reflect.Value) []byte {
	uvarint := func() uint64 {
		x, n := binary.Uvarint(b)
		if n <= 0 {
			panic("compare: a packed record is cut short")
		}
		b = b[n:]
		return x
	}
	switch v.Kind() {
	case reflect.String:
		n := uvarint()
		v.SetString(string(b[:n]))
		return b[n:]
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, n := binary.Varint(b)
		if n <= 0 {
			panic("compare: a packed record is cut short")
		}
		v.SetInt(x)
		return b[n:]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uvarint())
		return b
	case reflect.Bool:
		v.SetBool(b[0] == 1)
		return b[1:]
	case reflect.Float32, reflect.Float64:
		v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		return b[8:]
	case reflect.Slice:
		n := uvarint()
		if n == 0 {
			return b
		}
		s := reflect.MakeSlice(v.Type(), int(n-1), int(n-1))
		for i := range int(n - 1) {
			b = readPacked(b, s.Index(i))
		}
		v.Set(s)
		return b
	case reflect.Map:
		n := uvarint()
		if n == 0 {
			return b
		}
		m := reflect.MakeMapWithSize(v.Type(), int(n-1))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		for range n - 1 {
			k.SetZero()
			e.SetZero()
			b = readPacked(b, k)
			b = readPacked(b, e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
		return b
	case reflect.Struct:
		for i := range v.NumField() {
			b = readPacked(b, v.Field(i))
		}
		return b
	}
	panic("compare: a record field of kind " + v.Kind().String() + " cannot be unpacked")
}
