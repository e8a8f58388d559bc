package semmap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// queries.yaml is read by a parser of exactly the YAML it needs: top-level
// keys, each holding one level of "key: value" entries, values plain,
// 'single-' or "double-quoted" (JSON escapes), plain values folded over
// more-indented continuation lines, comments and blank lines. Anything
// else is an error naming the line, so a file is never half-understood.

// yamlEntry is one "key: value" line of a section, in file order.
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

// parseYAMLSections parses data; name prefixes errors ("queries.yaml:12:
// …").
func parseYAMLSections(data []byte, name string) (yamlSections, error) {
	out := yamlSections{entries: map[string][]yamlEntry{}}
	fail := func(line int, format string, args ...any) (yamlSections, error) {
		return yamlSections{}, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	lines := strings.Split(string(data), "\n")
	section, indent := "", -1
	var last *yamlEntry // the entry a plain continuation line extends
	lastIndent := 0
	for i := 0; i < len(lines); i++ {
		n := i + 1
		line := strings.TrimSuffix(lines[i], "\r")
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if !utf8.ValidString(line) {
			return fail(n, "invalid UTF-8")
		}
		body := strings.TrimLeft(line, " ")
		ind := len(line) - len(body)
		if strings.HasPrefix(body, "\t") || (ind == 0 && strings.HasPrefix(line, "\t")) {
			return fail(n, "tab in indentation; YAML indents with spaces")
		}
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		if body == "---" && ind == 0 && len(out.names) == 0 {
			continue
		}
		if last != nil && ind > lastIndent {
			text, err := plainText(body)
			if err != nil {
				return fail(n, "%v", err)
			}
			last.Value += " " + text
			continue
		}
		last = nil
		key, rest, err := splitKey(body)
		if err != nil {
			return fail(n, "%v", err)
		}
		if ind == 0 {
			if rest != "" && rest != "{}" {
				return fail(n, "top-level key %q must open a section (\"%s:\" alone on its line), got a value", key, key)
			}
			if _, dup := out.entries[key]; dup {
				return fail(n, "section %q appears twice", key)
			}
			section, indent = key, -1
			out.names = append(out.names, key)
			out.entries[key] = []yamlEntry{}
			continue
		}
		if section == "" {
			return fail(n, "indented entry %q before any section", key)
		}
		if indent < 0 {
			indent = ind
		} else if ind != indent {
			return fail(n, "entry %q indented by %d spaces, the section's entries by %d; nested mappings are not supported", key, ind, indent)
		}
		for _, e := range out.entries[section] {
			if e.Key == key {
				return fail(n, "key %q appears twice in section %q (first on line %d)", key, section, e.Line)
			}
		}
		if rest == "" {
			return fail(n, "key %q has no value; want key: \"text\"", key)
		}
		value, plain, err := scalar(rest)
		if err != nil {
			return fail(n, "key %q: %v", key, err)
		}
		out.entries[section] = append(out.entries[section], yamlEntry{Key: key, Value: value, Line: n})
		if plain {
			last, lastIndent = &out.entries[section][len(out.entries[section])-1], ind
		}
	}
	return out, nil
}

// splitKey splits "key: rest" (rest trimmed, comment dropped when
// unquoted).
func splitKey(body string) (string, string, error) {
	var key, rest string
	if strings.HasPrefix(body, `"`) {
		end := closingQuote(body)
		if end < 0 {
			return "", "", fmt.Errorf("unterminated quoted key")
		}
		if err := json.Unmarshal([]byte(body[:end+1]), &key); err != nil {
			return "", "", fmt.Errorf("bad quoted key %s: %v", body[:end+1], err)
		}
		after := body[end+1:]
		if !strings.HasPrefix(after, ":") {
			return "", "", fmt.Errorf("want ':' after key %q", key)
		}
		rest = after[1:]
	} else {
		i := strings.Index(body, ":")
		if i < 0 {
			return "", "", fmt.Errorf("want \"key: value\", got %q", body)
		}
		key, rest = strings.TrimRight(body[:i], " "), body[i+1:]
		if key == "" {
			return "", "", fmt.Errorf("empty key")
		}
		if strings.ContainsAny(key[:1], "-?[]{}&*!|>'%@`#,") {
			return "", "", fmt.Errorf("key %q: this YAML form (list, anchor, tag, flow, complex key) is not supported", key)
		}
	}
	if rest != "" && rest[0] != ' ' {
		return "", "", fmt.Errorf("want a space after ':' of key %q", key)
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "#") {
		rest = ""
	}
	return key, rest, nil
}

// closingQuote is the index of the quote that closes a double-quoted
// string starting at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// scalar reads an entry's value; plain reports an unquoted one, which
// continuation lines may extend.
func scalar(rest string) (string, bool, error) {
	switch rest[0] {
	case '"':
		end := closingQuote(rest)
		if end < 0 {
			return "", false, fmt.Errorf("unterminated double-quoted string (multi-line quoted strings are not supported)")
		}
		var s string
		if err := json.Unmarshal([]byte(rest[:end+1]), &s); err != nil {
			return "", false, fmt.Errorf("bad double-quoted string %s: want JSON escapes only", rest[:end+1])
		}
		if err := trailing(rest[end+1:]); err != nil {
			return "", false, err
		}
		return s, false, nil
	case '\'':
		var b strings.Builder
		for i := 1; i < len(rest); i++ {
			if rest[i] != '\'' {
				b.WriteByte(rest[i])
				continue
			}
			if i+1 < len(rest) && rest[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			if err := trailing(rest[i+1:]); err != nil {
				return "", false, err
			}
			return b.String(), false, nil
		}
		return "", false, fmt.Errorf("unterminated single-quoted string (multi-line quoted strings are not supported)")
	}
	text, err := plainText(rest)
	return text, true, err
}

func trailing(s string) error {
	s = strings.TrimLeft(s, " ")
	if s == "" || strings.HasPrefix(s, "#") {
		return nil
	}
	return fmt.Errorf("unexpected %q after the quoted string", s)
}

// plainText reads an unquoted value: up to a " #" comment, and refusing
// what YAML would read as something other than a string.
func plainText(s string) (string, error) {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("empty value")
	}
	if strings.ContainsAny(s[:1], "[]{}&*!|>%@`,") || strings.HasPrefix(s, "- ") || s == "-" {
		return "", fmt.Errorf("value %q: this YAML form (flow collection, anchor, tag, block scalar, list) is not supported; quote the text", s)
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return "", fmt.Errorf("value %q contains ': ', which YAML reads as a mapping; quote the text", s)
	}
	return s, nil
}

// writeYAMLSections writes sections in the order given, every value
// double-quoted (a JSON string is a YAML double-quoted scalar).
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
			b.WriteString("  " + yamlKey(e.Key) + ": " + quoteJSON(e.Value) + "\n")
		}
	}
	return b.Bytes()
}

// yamlKey writes a key bare when the parser reads it back unchanged.
func yamlKey(k string) string {
	if k != "" && !strings.ContainsAny(k, ":#\"'\n\r\t\\") && strings.TrimSpace(k) == k &&
		!strings.ContainsAny(k[:1], "-?[]{}&*!|>%@`,") && k != "---" {
		return k
	}
	return quoteJSON(k)
}

func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
