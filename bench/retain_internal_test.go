package bench

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// filled is a record whose every field holds a value unlike any other
// field's and unlike its zero, set by reflection so that a field added to
// results.Record is filled too: a field that pack or unpack leaves out
// comes back zero and fails the round trip.
func filled(seed int) results.Record {
	var r results.Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f, n := v.Field(i), seed*100+i+1
		switch f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprintf("%s-%d", v.Type().Field(i).Name, n))
		case reflect.Int:
			f.SetInt(int64(n))
		case reflect.Uint64:
			f.SetUint(uint64(n))
		case reflect.Float64:
			f.SetFloat(float64(n) + 0.5)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Map: // map[string]int
			f.Set(reflect.ValueOf(map[string]int{fmt.Sprint("k", n): n, "x": 1}))
		case reflect.Slice:
			switch f.Type().Elem().Kind() {
			case reflect.String:
				f.Set(reflect.ValueOf([]string{fmt.Sprint("a", n), "b"}))
			case reflect.Int:
				f.Set(reflect.ValueOf([]int{n, 2}))
			case reflect.Struct: // []results.Message
				f.Set(reflect.ValueOf([]results.Message{{From: fmt.Sprint("r", n), To: "u", Text: "t", Reply: "y"}}))
			default:
				panic(fmt.Sprintf("filled: no value for %s (%s): teach filled and retained the new kind", v.Type().Field(i).Name, f.Type()))
			}
		default:
			panic(fmt.Sprintf("filled: no value for %s (%s): teach filled and retained the new kind", v.Type().Field(i).Name, f.Type()))
		}
	}
	return r
}

func TestPackedRecordRoundTrips(t *testing.T) {
	t.Parallel()
	empty := results.Record{ToolCalls: map[string]int{}, ActedBy: []string{}, Messages: []results.Message{}, ReflectionTrials: []int{}}
	tests := []struct {
		name string
		recs []results.Record
	}{
		{"every field set, two records unlike each other", []results.Record{filled(1), filled(2)}},
		{"the zero record: nil maps and lists stay nil", []results.Record{{}}},
		{"empty maps and lists stay empty, not nil: their JSON is {} and [], not null", []results.Record{empty}},
		{"a record after an equal one gets equal values back", []results.Record{filled(3), filled(3)}},
		{"lists whose strings joined are the same stay apart", []results.Record{{ActedBy: []string{"a", "b"}}, {ActedBy: []string{"a\x00b"}}, {ActedBy: []string{"ab"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newRetained()
			for i := range tt.recs {
				r := tt.recs[i]
				k.keep(&r)
			}
			got := k.records()
			if len(got) != len(tt.recs) {
				t.Fatalf("%d records back, %d kept", len(got), len(tt.recs))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], tt.recs[i]) {
					t.Errorf("record %d\nkept %+v\ngot  %+v", i, tt.recs[i], got[i])
				}
				if want := tt.recs[i]; (want.ToolCalls == nil) != (got[i].ToolCalls == nil) || (want.ActedBy == nil) != (got[i].ActedBy == nil) {
					t.Errorf("record %d: nil and empty told apart wrongly", i)
				}
			}
		})
	}
}

// The point of packing: the collector never reads a packed record.
func TestPackedRecordHoldsNoPointer(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[packedRecord]()
	for i := range typ.NumField() {
		switch f := typ.Field(i); f.Type.Kind() {
		case reflect.Int, reflect.Uint32, reflect.Uint64, reflect.Float64, reflect.Bool:
		default:
			t.Errorf("packedRecord.%s is a %s: the collector would scan every record kept", f.Name, f.Type)
		}
	}
}
