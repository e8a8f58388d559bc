package agents

import "unicode/utf8"

// plainArgs decodes a tool call's arguments when they are plainly what
// the tool takes, as nearly every call's are: one JSON object whose keys
// are each a field's own name, once, and whose values are strings with
// nothing to unescape. It sets dst's fields as encoding/json would and
// reports true. Anything else (an escape, a value of another type, an
// unknown or repeated key, a key in other case, bytes that are not UTF-8)
// it leaves to decodeArgsJSON, which also says what is wrong. Through
// encoding/json a call made a decoder, a reader and the decoder's buffer:
// a twentieth of a household run's CPU.
func plainArgs(raw []byte, dst any) bool {
	var fields [3]struct {
		key string
		to  *string
	}
	n := 0
	add := func(key string, to *string) {
		fields[n].key, fields[n].to = key, to
		n++
	}
	switch d := dst.(type) {
	case *NoArgs:
	case *ActArgs:
		add("command", &d.Command)
	case *PickAndPlaceArgs:
		add("pick", &d.Pick)
		add("place", &d.Place)
	case *AskArgs:
		add("tag", &d.Tag)
		add("question", &d.Question)
	case *AskRobotArgs:
		add("message", &d.Message)
	case *RetrieveNodeArgs:
		add("name", &d.Name)
		add("attr_key", &d.AttrKey)
		add("attr_val", &d.AttrVal)
	case *RetrieveEdgeArgs:
		add("source", &d.Source)
		add("target", &d.Target)
		add("relation", &d.Relation)
	default:
		return false
	}
	var vals [len(fields)]string
	var set [len(fields)]bool
	i := 0
	space := func() {
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
			i++
		}
	}
	// str reads a string that holds no escape and no control byte.
	str := func() (string, bool) {
		if i >= len(raw) || raw[i] != '"' {
			return "", false
		}
		for j := i + 1; j < len(raw); j++ {
			switch c := raw[j]; {
			case c == '"':
				s := string(raw[i+1 : j])
				i = j + 1
				return s, utf8.ValidString(s)
			case c == '\\' || c < 0x20:
				return "", false
			}
		}
		return "", false
	}
	space()
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i++
	space()
	if i < len(raw) && raw[i] == '}' {
		i++
	} else {
		for {
			key, ok := str()
			if !ok {
				return false
			}
			f := -1
			for k := range n {
				if fields[k].key == key {
					f = k
				}
			}
			if f < 0 || set[f] {
				return false
			}
			space()
			if i >= len(raw) || raw[i] != ':' {
				return false
			}
			i++
			space()
			if vals[f], ok = str(); !ok {
				return false
			}
			set[f] = true
			space()
			if i >= len(raw) {
				return false
			}
			if raw[i] == '}' {
				i++
				break
			}
			if raw[i] != ',' {
				return false
			}
			i++
			space()
		}
	}
	space()
	if i != len(raw) {
		return false
	}
	for k := range n {
		if set[k] {
			*fields[k].to = vals[k]
		}
	}
	return true
}
