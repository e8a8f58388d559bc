package results

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// sampleLines are records as the tracks write them (make bench's runs:
// an sgcot episode with perception errors, two robots talking, household
// games with reflections, semmap answers, an agent error, a scene size),
// one of them with an escape in a string.
func sampleLines(tb testing.TB) [][]byte {
	tb.Helper()
	data, err := os.ReadFile("testdata/lines.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(data), []byte("\n"))
}

// everyField is a record with every field set to something other than
// its zero value, found by reflection: a field added to Record and not to
// recordField fails TestFastDecodeEveryField.
func everyField(t *testing.T) Record {
	var r Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(int64(-3 - i))
		case reflect.Uint64:
			f.SetUint(1<<63 + uint64(i))
		case reflect.Float64:
			f.SetFloat(0.1 * float64(i+1))
		case reflect.String:
			f.SetString("é" + v.Type().Field(i).Name)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]int{"a": i, "b": -i}))
		case reflect.Slice:
			switch f.Type().Elem().Kind() {
			case reflect.Int:
				f.Set(reflect.ValueOf([]int{i, 0, -i}))
			case reflect.String:
				f.Set(reflect.ValueOf([]string{"x", ""}))
			case reflect.Struct:
				f.Set(reflect.ValueOf([]Message{{From: "robot1", To: "robot2", Text: "t", Reply: "r"}, {}}))
			default:
				t.Fatalf("field %s: a slice of %s, which the test does not fill", v.Type().Field(i).Name, f.Type().Elem())
			}
		default:
			t.Fatalf("field %s: kind %s, which the test does not fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	return r
}

func TestFastDecodeEveryField(t *testing.T) {
	want := everyField(t)
	line, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got Record
	if !fastDecode(line, &got) {
		t.Fatalf("fastDecode left a line of every field to encoding/json (a field missing from recordField?):\n%s", line)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fastDecode:\n%+v\nwant\n%+v", got, want)
	}
}

// TestFastDecodeSamples: the lines the tracks write are read by the fast
// path (all but the one with an escape) and to what encoding/json reads.
func TestFastDecodeSamples(t *testing.T) {
	for i, line := range sampleLines(t) {
		want, err := decodeRecordJSON(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var got Record
		ok := fastDecode(line, &got)
		if escaped := bytes.IndexByte(line, '\\') >= 0; ok == escaped {
			t.Errorf("line %d: fastDecode %v, with an escape %v", i+1, ok, escaped)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("line %d: fastDecode\n%+v\nencoding/json\n%+v", i+1, got, want)
		}
	}
}

// TestFastDecodeLeaves: what the fast path leaves to encoding/json, each
// a way it would otherwise read a line differently or miss an error.
func TestFastDecodeLeaves(t *testing.T) {
	for _, c := range []struct{ why, line string }{
		{"an escape, which encoding/json unescapes", `{"agent":"a\"b"}`},
		{"invalid UTF-8, which encoding/json replaces", "{\"agent\":\"\xff\"}"},
		{"a control character, which JSON forbids in a string", "{\"agent\":\"a\tb\"}"},
		{"a key in another case, which encoding/json also takes", `{"Agent":"a"}`},
		{"an unknown field, refused", `{"agents":"a"}`},
		{"a key twice, where a map would merge", `{"tool_calls":{"a":1},"tool_calls":{"b":2}}`},
		{"a message's key twice", `{"messages":[{"from":"a","from":"b"}]}`},
		{"a message's unknown field", `{"messages":[{"form":"a"}]}`},
		{"null, which leaves a field as it is", `{"agent":null}`},
		{"a fraction for an int", `{"episode":1.5}`},
		{"an exponent for an int", `{"episode":1e2}`},
		{"an int out of range", `{"episode":9223372036854775808}`},
		{"a negative seed", `{"seed":-1}`},
		{"a float out of range", `{"wall_ms":1e999}`},
		{"a leading zero", `{"episode":01}`},
		{"a string for a number", `{"episode":"1"}`},
		{"trailing data", `{"episode":1} x`},
		{"two objects", `{}{}`},
		{"a trailing comma", `{"episode":1,}`},
		{"a cut line", `{"episode":1`},
		{"not an object", `[]`},
		{"a bare minus", `{"episode":-}`},
		{"a dot without digits", `{"wall_ms":1.}`},
		{"an exponent without digits", `{"wall_ms":1e}`},
		{"a true misspelt", `{"ada":tru}`},
		{"an array of the wrong kind", `{"answer":[1]}`},
	} {
		var rec Record
		if fastDecode([]byte(c.line), &rec) {
			t.Errorf("%s: fastDecode read %s", c.why, c.line)
		}
	}
}

// FuzzFastDecode: whatever line the fast path reads, encoding/json reads
// too, to the same record.
func FuzzFastDecode(f *testing.F) {
	for _, line := range sampleLines(f) {
		f.Add(line)
	}
	for _, s := range []string{`{}`, ` { "tool_calls" : { } , "answer" : [ ] } `, `{"seed":18446744073709551615,"episode":-0,"wall_ms":-0.0e-5}`,
		`{"messages":[{"from":"a","to":"b","text":"","reply":"é"}],"acted_by":["robot1"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var got Record
		if !fastDecode(line, &got) {
			return
		}
		want, err := decodeRecordJSON(line)
		if err != nil {
			t.Fatalf("fastDecode read %q, which encoding/json refuses: %v", line, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: fastDecode\n%+v\nencoding/json\n%+v", line, got, want)
		}
	})
}

// BenchmarkDecodeRecord reads the sample lines, by the fast path and by
// encoding/json alone.
func BenchmarkDecodeRecord(b *testing.B) {
	lines := sampleLines(b)
	var size int
	for _, l := range lines {
		size += len(l)
	}
	for _, c := range []struct {
		name   string
		decode func([]byte) (Record, error)
	}{{"path=fast", decodeRecord}, {"path=json", func(l []byte) (Record, error) {
		r, err := decodeRecordJSON(l)
		if err == nil {
			err = r.Validate()
		}
		return r, err
	}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, l := range lines {
					if _, err := c.decode(l); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
