package sgcottext

import (
	"encoding/json"
	"strings"
)

// String writes the reply in the canonical form: the thought on the
// "THOUGHT:" line, then the request or the final decisions on a line of
// their own. Parse reads it back to the same reply.
func (r Reply) String() string {
	var b strings.Builder
	b.WriteString(markThought + " " + r.Thought + "\n")
	if r.Request != nil {
		b.WriteString(markRequest + " " + r.Request.String())
		return b.String()
	}
	list := make([]decision, len(r.Moves))
	for i, m := range r.Moves {
		action, pick, place := PickAndPlace, m.Pick, m.Place
		list[i] = decision{Action: &action, PickObject: &pick, PlaceObject: &place}
	}
	data, _ := json.Marshal(list) // strings only: always encodes
	b.WriteString(markFinal + " ")
	b.Write(data)
	return b.String()
}

// String writes the request as a call, each argument double-quoted.
func (r *Request) String() string {
	var args []string
	add := func(key, val string) {
		if key == "" {
			args = append(args, quote(val))
			return
		}
		args = append(args, key+"="+quote(val))
	}
	switch r.Name {
	case RetrieveNode:
		if r.Node != "" {
			add("name", r.Node)
		}
		for i, a := range r.Attrs {
			if i == 0 {
				add("attr_key", a.Key)
				add("attr_val", a.Val)
				continue
			}
			add(a.Key, a.Val)
		}
	case RetrieveEdge:
		for _, f := range [][2]string{{"source", r.Source}, {"target", r.Target}, {"relation", r.Relation}} {
			if f[1] != "" {
				add(f[0], f[1])
			}
		}
	case PickAndPlace:
		add("object", r.Object)
		add("destination", r.Destination)
	default:
		add("", r.Text)
	}
	return r.Name + "(" + strings.Join(args, ", ") + ")"
}

// quote double-quotes s, escaping the quote and the backslash.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
