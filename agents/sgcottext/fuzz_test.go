package sgcottext

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParse: no reply makes Parse panic; what it refuses is an *Error;
// what it reads, written canonically, reads back the same, and its
// request carries out as a call that translates back to it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"THOUGHT: t\nREQUEST: retrieve_node(type='bowl', color='red')",
		"THOUGHT: t\nREQUEST: retrieve_edge(scene, type=‘inside_of’, target=‘red bowl 1’)",
		"THOUGHT: t\nREQUEST: ask_multiplicity(”Which one?”)",
		`THOUGHT: t` + "\n" + `REQUEST: ask_robot(message="Can you \"see\" it?")`,
		"THOUGHT: t\nREQUEST: pick_and_place(object='a', destination='b')",
		`THOUGHT: t` + "\n" + `FINAL_DECISIONS: [{"action": "pick_and_place", "pick_object": "a", "place_object": "b"}]`,
		"THOUGHT: I will act now.\nREQUEST: pick_and_place(pick=",
		"THOUGHT: t FINAL_DECISIONS: []",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("Parse(%q): %v is not an *Error", text, err)
			}
			return
		}
		again, err := Parse(r.String())
		if err != nil {
			t.Fatalf("Parse(%q) read %#v, whose canonical form %q does not read: %v", text, r, r.String(), err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("%q read back as %#v, want %#v", r.String(), again, r)
		}
		if r.Request != nil && len(r.Request.Attrs) <= 1 {
			tool, args := r.Request.Call()
			back, ok := FromCall(tool, args)
			if !ok || back.String() != r.Request.String() {
				t.Fatalf("%s → %s %v → %v", r.Request, tool, args, back)
			}
		}
	})
}
