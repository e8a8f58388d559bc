package reports

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// fullRecord sets every field of a Record to a value of its own, so that
// a field the store forgets to pack comes back different.
func fullRecord(t *testing.T, salt int) results.Record {
	t.Helper()
	var r results.Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		n := salt*100 + i + 1
		switch f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprintf("s%d", n))
		case reflect.Int:
			f.SetInt(int64(n))
		case reflect.Uint64:
			f.SetUint(uint64(n) << 40)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Float64:
			f.SetFloat(float64(n) + 0.125)
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]int{fmt.Sprintf("k%d", n): n, "shared": -n}))
		case reflect.Slice:
			switch f.Type().Elem().Kind() {
			case reflect.Int:
				f.Set(reflect.ValueOf([]int{n, -n, 0}))
			case reflect.String:
				f.Set(reflect.ValueOf([]string{fmt.Sprintf("id%d", n), "shared"}))
			case reflect.Struct:
				f.Set(reflect.ValueOf([]results.Message{{From: "robot1", To: "robot2", Text: "hi"}, {Text: "again"}}))
			default:
				t.Fatalf("field %s: a slice of %s the test does not fill", v.Type().Field(i).Name, f.Type().Elem())
			}
		default:
			t.Fatalf("field %s: a %s the test does not fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	return r
}

// Every field a report may read comes back from the store as it went in;
// the three it does not keep (the instruction, the messages' contents,
// acted_by) come back empty, the messages' number kept. A field added to
// Record and not to the store fails here.
func TestStoreRoundTrip(t *testing.T) {
	t.Parallel()
	s := newStore()
	var want []results.Record
	for salt := range 3 {
		r := fullRecord(t, salt)
		s.add(r)
		r.Instruction, r.ActedBy = "", nil
		r.Messages = make([]results.Message, len(r.Messages))
		want = append(want, r)
	}
	zero := results.Record{Outcome: results.OutcomeScored} // the floats and slices left out
	s.add(zero)
	want = append(want, zero)
	for i, w := range want {
		if got := s.record(i); !reflect.DeepEqual(got, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, w)
		}
		if a, m := s.agentModel(i); a != w.Agent || m != w.Model {
			t.Errorf("record %d: agentModel %q, %q; want %q, %q", i, a, m, w.Agent, w.Model)
		}
	}
	names, counts, size := len(s.names), len(s.counts), packed(s)
	s.add(fullRecord(t, 1))
	if len(s.names) != names || len(s.counts) != counts {
		t.Errorf("a record again added %d names and %d maps: each is kept once", len(s.names)-names, len(s.counts)-counts)
	}
	if per := packed(s) - size; per > 160 {
		t.Errorf("a record with every field set packs to %d bytes, want at most 160", per)
	}
}

func packed(s *store) int {
	n := 0
	for _, c := range s.chunks {
		n += len(c)
	}
	return n
}

// Records fill chunk after chunk, none split between two; one larger
// than a chunk gets a chunk of its own; each comes back as it went in.
func TestStoreChunks(t *testing.T) {
	t.Parallel()
	s := newStore()
	var want []results.Record
	for i := range 30000 {
		r := results.Record{Outcome: results.OutcomeScored, Episode: i, WallMS: float64(i) + 0.5}
		if i == 12345 {
			r.Answer = make([]string, chunkSize/2)
			for j := range r.Answer {
				r.Answer[j] = fmt.Sprint(j) // names past 127 take two bytes or more
			}
		}
		s.add(r)
		want = append(want, r)
	}
	if len(s.chunks) < 3 {
		t.Fatalf("%d chunks: want the records spread over three or more", len(s.chunks))
	}
	for c, chunk := range s.chunks {
		if len(chunk) > chunkSize && cap(chunk) != len(chunk) {
			t.Errorf("chunk %d: %d bytes in %d of room: a record larger than a chunk is alone in one", c, len(chunk), cap(chunk))
		}
	}
	for i, w := range want {
		if got := s.record(i); !reflect.DeepEqual(got, w) {
			t.Fatalf("record %d: got episode %d, %d answers; want episode %d, %d", i, got.Episode, len(got.Answer), w.Episode, len(w.Answer))
		}
	}
}

// A report adds up the same records to the same bytes in any order: the
// units sort their records by key.
func TestReportAnyOrder(t *testing.T) {
	t.Parallel()
	var recs []results.Record
	for ep := range 12 {
		for _, agent := range []string{"rules", "oracle"} {
			r := rec(agent, "pick_place", []string{"none", "absence"}[ep%2], ep%3 == 0, ep%4 == 0)
			r.Episode, r.Model, r.WallMS = ep, "", 0.1*float64(ep+1)
			recs = append(recs, r)
		}
	}
	write := func(recs []results.Record) string {
		rep := New(Options{Tracks: testTracks})
		for _, r := range recs {
			if err := rep.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		if err := rep.Write(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	fwd := write(recs)
	rev := slices.Clone(recs)
	slices.Reverse(rev)
	if back := write(rev); back != fwd {
		t.Errorf("the records reversed give another report:\n%s\n---\n%s", fwd, back)
	}
	rep := New(Options{})
	for range 2 {
		if err := rep.Add(recs[0]); err != nil {
			t.Fatal(err)
		}
	}
	if err := rep.Write(io.Discard); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("an episode added twice: %v, want it named as appearing twice", err)
	}
}
