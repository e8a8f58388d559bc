package agents

import (
	"reflect"
	"testing"
)

// plainTypes are the argument types plainArgs reads, one fresh value each.
func plainTypes() []any {
	return []any{&NoArgs{}, &ActArgs{}, &PickAndPlaceArgs{}, &AskArgs{}, &AskRobotArgs{}, &RetrieveNodeArgs{}, &RetrieveEdgeArgs{}}
}

// fresh returns a new zero value of dst's type.
func fresh(dst any) any { return reflect.New(reflect.TypeOf(dst).Elem()).Interface() }

func TestPlainArgs(t *testing.T) {
	for _, tc := range []struct {
		why   string
		dst   any
		raw   string
		plain bool
	}{
		{"the common call", &PickAndPlaceArgs{}, `{"pick":"red block 1","place":"blue bowl 1"}`, true},
		{"space between every token", &AskArgs{}, " {\n\t\"tag\" : \"absence\" ,\r\"question\":\"Which?\" } ", true},
		{"no arguments", &NoArgs{}, `{}`, true},
		{"a field left out", &RetrieveNodeArgs{}, `{"name":"red block 1"}`, true},
		{"text beyond ASCII", &ActArgs{}, `{"command":"think: café"}`, true},
		{"an escape, which JSON must unescape", &ActArgs{}, `{"command":"say \"hi\""}`, false},
		{"a key in other case, which JSON matches to the field", &ActArgs{}, `{"Command":"look"}`, false},
		{"a repeated key, whose last value JSON keeps", &ActArgs{}, `{"command":"look","command":"inventory"}`, false},
		{"an unknown key, which JSON names", &ActArgs{}, `{"command":"look","why":"x"}`, false},
		{"a number, which JSON refuses", &ActArgs{}, `{"command":1}`, false},
		{"null, which JSON leaves the field at", &ActArgs{}, `{"command":null}`, false},
		{"bytes that are not UTF-8, which JSON replaces", &ActArgs{}, "{\"command\":\"\xff\"}", false},
		{"a control byte, which JSON refuses", &ActArgs{}, "{\"command\":\"a\tb\"}", false},
		{"a trailing comma", &ActArgs{}, `{"command":"look",}`, false},
		{"a second object", &ActArgs{}, `{"command":"look"}{}`, false},
		{"an object cut short", &ActArgs{}, `{"command":"look"`, false},
		{"an argument type with other than strings", &AnswerArgs{}, `{}`, false},
	} {
		got := fresh(tc.dst)
		if plain := plainArgs([]byte(tc.raw), got); plain != tc.plain {
			t.Errorf("%s: plainArgs(%q) = %v, want %v", tc.why, tc.raw, plain, tc.plain)
			continue
		}
		if !tc.plain {
			if !reflect.DeepEqual(got, fresh(tc.dst)) {
				t.Errorf("%s: plainArgs(%q) left to JSON but set %+v", tc.why, tc.raw, got)
			}
			continue
		}
		want := fresh(tc.dst)
		if err := decodeArgsJSON("tool", []byte(tc.raw), want); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: plainArgs(%q) = %+v; encoding/json gives %+v, %v", tc.why, tc.raw, got, want, err)
		}
	}
}

// What plainArgs takes, encoding/json takes too, to the same value; what
// it leaves, it leaves untouched.
func FuzzPlainArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"pick":"a","place":"b"}`, `{"command":"go to desk 1"}`, ` { "tag" : "absence" } `,
		`{"name":"x","attr_key":"color","attr_val":"red"}`, `{"source":"a","relation":"near"}`, `{"message":"\u00e9"}`} {
		for k := range plainTypes() {
			f.Add(uint8(k), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, k uint8, raw []byte) {
		types := plainTypes()
		dst := types[int(k)%len(types)]
		got := fresh(dst)
		if !plainArgs(raw, got) {
			if !reflect.DeepEqual(got, fresh(dst)) {
				t.Fatalf("plainArgs(%q) left the arguments to JSON but set %+v", raw, got)
			}
			return
		}
		want := fresh(dst)
		if err := decodeArgsJSON("tool", raw, want); err != nil {
			t.Fatalf("plainArgs took %q as %+v; encoding/json refuses it: %v", raw, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("plainArgs(%q) = %+v; encoding/json gives %+v", raw, got, want)
		}
	})
}
