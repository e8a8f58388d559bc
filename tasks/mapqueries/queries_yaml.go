package mapqueries

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// queries.yaml is YAML, read by go.yaml.in/yaml/v3 into its node tree,
// which keeps every value's line. This file only parses: it checks the
// shape the loaders read (a mapping of sections, each a mapping of id to
// text, no key twice) and hands them the entries in file order; what the
// entries must say (a known section, a known type, an id that is a query)
// is ParseQueries' and ParseIntentQueries' to check. Every error names
// the file and a line.

// yamlEntry is one "key: value" entry of a section, in file order.
type yamlEntry struct {
	Key, Value string
	Line       int
}

// yamlSections are the sections of a file, in file order.
type yamlSections struct {
	names   []string
	entries map[string][]yamlEntry
}

func (s yamlSections) get(name string) []yamlEntry { return s.entries[name] }

// yamlLine matches the line the YAML module's errors name.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseYAMLSections parses data; name prefixes errors ("queries.yaml:12:
// …").
func parseYAMLSections(data []byte, name string) (yamlSections, error) {
	out := yamlSections{entries: map[string][]yamlEntry{}}
	fail := func(line int, format string, args ...any) (yamlSections, error) {
		return yamlSections{}, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return out, nil // no document: no section
		}
		return yamlSections{}, syntaxError(data, name, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return fail(next.Line, "a second YAML document; the file holds one")
	} else if !errors.Is(err, io.EOF) {
		return yamlSections{}, syntaxError(data, name, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return out, nil // a document of comments alone
	case root.Kind != yaml.MappingNode:
		return fail(root.Line, "want sections (queries:, …), got %s", kindOf(root))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolve(root.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return fail(k.Line, "a section named by %s; want a name", kindOf(k))
		}
		key := k.Value
		switch {
		case k.Column > 1:
			return fail(k.Line, "indented entry %q before any section", key)
		case v.Kind == yaml.ScalarNode && v.Tag != "!!null":
			return fail(k.Line, "top-level key %q must open a section (\"%s:\" alone on its line), got a value", key, key)
		case v.Kind != yaml.ScalarNode && v.Kind != yaml.MappingNode:
			return fail(v.Line, "want \"key: value\", got %q", sourceLine(data, v.Line))
		}
		if _, dup := out.entries[key]; dup {
			return fail(k.Line, "section %q appears twice", key)
		}
		out.names = append(out.names, key)
		out.entries[key] = []yamlEntry{}
		for j := 0; j+1 < len(v.Content); j += 2 {
			ek, ev := v.Content[j], resolve(v.Content[j+1])
			if ek.Kind != yaml.ScalarNode {
				return fail(ek.Line, "an entry of section %q keyed by %s; want an id", key, kindOf(ek))
			}
			for _, e := range out.entries[key] {
				if e.Key == ek.Value {
					return fail(ek.Line, "key %q appears twice in section %q (first on line %d)", ek.Value, key, e.Line)
				}
			}
			switch {
			case ev.Kind != yaml.ScalarNode:
				return fail(ev.Line, "key %q: want text, got %s; quote the text", ek.Value, kindOf(ev))
			case ev.Tag == "!!null" && ev.Style == 0:
				return fail(ek.Line, "key %q has no value; want key: \"text\"", ek.Value)
			}
			out.entries[key] = append(out.entries[key], yamlEntry{Key: ek.Value, Value: ev.Value, Line: ek.Line})
		}
	}
	return out, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// kindOf says what a node is, for errors.
func kindOf(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	}
	return "nothing"
}

// syntaxError is the YAML module's error as "file:line: what", or with
// the file alone when the module names no line. The module names the
// line where the construct it was reading began (the section, for a
// fault in one of its entries); the line given is the first whose
// prefix of the file fails to parse, which is where the fault is. A tab
// in a line's indentation, which the module calls a character that
// cannot start a token, is said plainly, and so is a text that YAML
// reads as a mapping.
func syntaxError(data []byte, name string, err error) error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	line, _ := strconv.Atoi(m[1])
	line = max(line, faultLine(data))
	if strings.HasPrefix(strings.TrimLeft(sourceLine(data, line), " "), "\t") {
		return fmt.Errorf("%s:%d: tab in indentation; YAML indents with spaces", name, line)
	}
	what := m[2]
	switch what {
	case "mapping values are not allowed in this context":
		what += " (a text that holds \": \" is quoted)"
	case "found unexpected end of stream":
		what += " (a quoted text not closed?)"
	}
	return fmt.Errorf("%s:%d: %s", name, line, what)
}

// faultLine is the number of lines of the shortest prefix of data that
// does not parse as YAML for a reason other than ending early (inside a
// quoted string, say), found by bisection; 0 when there is none.
func faultLine(data []byte) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	fails := func(n int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(bytes.Join(lines[:n], nil)))
		for {
			var doc yaml.Node
			err := dec.Decode(&doc)
			if err == nil {
				continue
			}
			return !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "unexpected end of stream")
		}
	}
	if !fails(len(lines)) {
		return 0
	}
	lo, hi := 0, len(lines) // fails(hi); not known to fail at lo
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// sourceLine is line n of data (from 1), trimmed of spaces; "" past the
// end.
func sourceLine(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(strings.TrimLeft(lines[n-1], " "), " \r")
}

// writeYAMLSections writes sections in the order given, every value
// double-quoted.
func writeYAMLSections(header string, names []string, entries map[string][]yamlEntry) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimSpace(header), "\n") {
		b.WriteString("# " + l + "\n")
	}
	for _, name := range names {
		es := entries[name]
		if len(es) == 0 {
			continue
		}
		b.WriteString(yamlKey(name) + ":\n")
		for _, e := range es {
			b.WriteString("  " + yamlKey(e.Key) + ": " + quoteYAML(e.Value) + "\n")
		}
	}
	return b.Bytes()
}

// bareKey matches the keys written without quotes: ids such as query_01,
// which YAML reads back as the same text.
var bareKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// yamlKey writes a key bare when YAML reads it back unchanged.
func yamlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return quoteYAML(k)
}

// quoteYAML writes s as a YAML double-quoted scalar: a JSON string (JSON
// escapes are YAML's too), with \u escapes also for the characters YAML
// does not take raw (DEL and the C1 controls, NEL among them, which YAML
// would read as a line break, the byte-order mark and the non-characters
// U+FFFE and U+FFFF).
func quoteYAML(s string) string {
	q := quoteJSON(s)
	if !strings.ContainsFunc(q, yamlRaw) {
		return q
	}
	var out strings.Builder
	for _, r := range q {
		if yamlRaw(r) {
			fmt.Fprintf(&out, `\u%04X`, r)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}

// yamlRaw reports a character that a YAML stream may not hold as it is.
func yamlRaw(r rune) bool {
	return (r >= 0x7F && r <= 0x9F) || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF
}

// quoteJSON writes s as a JSON string, HTML characters unescaped.
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
