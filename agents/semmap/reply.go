package semmap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/ambibench/ambibench/agents"
)

// Models wrap the JSON they were asked for in prose and code fences, and
// bend its types: ids as numbers, query_achievable as "yes" or, as paper
// 000 shows, "partially". The parsers below accept what a careful reader
// would and refuse the rest with the reason.

// ParseSemmapReply reads a semmap answer from a model's reply: the first
// JSON object in the text that has a relevant_objects field.
func ParseSemmapReply(text string) (agents.AnswerArgs, error) {
	var firstErr error
	sawObject := false
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		var raw map[string]json.RawMessage
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		if dec.Decode(&raw) != nil {
			continue
		}
		sawObject = true
		a, ok, err := answerFromFields(raw)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if ok && err == nil {
			return a, nil
		}
		// An object without the field may be an example or a nested
		// value; keep looking after its opening brace.
	}
	switch {
	case firstErr != nil:
		return agents.AnswerArgs{}, firstErr
	case sawObject:
		return agents.AnswerArgs{}, fmt.Errorf("semmap reply: no JSON object has a %q field", "relevant_objects")
	}
	return agents.AnswerArgs{}, fmt.Errorf("semmap reply: no JSON object in %.80q", text)
}

// answerFromFields decodes the fields of one object; ok is false when it
// has no relevant_objects field at all.
func answerFromFields(raw map[string]json.RawMessage) (a agents.AnswerArgs, ok bool, err error) {
	objs, ok := raw["relevant_objects"]
	if !ok {
		return agents.AnswerArgs{}, false, nil
	}
	ids, err := idList(objs)
	if err != nil {
		return agents.AnswerArgs{}, true, fmt.Errorf("semmap reply: field %q: %w", "relevant_objects", err)
	}
	a.RelevantObjects = ids
	if v, ok := raw["inferred_query"]; ok {
		a.InferredQuery = looseString(v)
	}
	if v, ok := raw["explanation"]; ok {
		a.Explanation = looseString(v)
	}
	a.QueryAchievable = len(ids) > 0
	if v, ok := raw["query_achievable"]; ok {
		b, err := looseBool(v)
		if err != nil {
			return agents.AnswerArgs{}, true, fmt.Errorf("semmap reply: field %q: %w", "query_achievable", err)
		}
		a.QueryAchievable = b
	}
	return a, true, nil
}

// idList reads a list of object ids: strings, numbers (obj ids written
// bare), or objects carrying an "id". null is the empty list.
func idList(v json.RawMessage) ([]string, error) {
	v = bytes.TrimSpace(v)
	if bytes.Equal(v, []byte("null")) {
		return []string{}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("want a list of ids, got %.40s", v)
	}
	ids := make([]string, 0, len(items))
	seen := map[string]bool{}
	for i, it := range items {
		id, err := oneID(it)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		if id == "" || seen[id] {
			continue // an empty or repeated id adds nothing to a ranking
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, nil
}

func oneID(it json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(it, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if json.Unmarshal(it, &n) == nil {
		return n.String(), nil
	}
	var o struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(it, &o) == nil && o.ID != nil {
		var s string
		if json.Unmarshal(o.ID, &s) == nil {
			return strings.TrimSpace(s), nil
		}
	}
	return "", fmt.Errorf("want an id string, got %.40s", it)
}

func looseString(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(v))
}

// looseBool reads true/false, or a word for them. "partially" counts as
// achievable: the model means some objects serve.
func looseBool(v json.RawMessage) (bool, error) {
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return b, nil
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return false, fmt.Errorf("want true or false, got %.40s", v)
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "partially", "partial":
		return true, nil
	case "false", "no", "":
		return false, nil
	}
	return false, fmt.Errorf("want true or false, got %q", s)
}

// ParseChoice reads a chooser's pick among n responses lettered A, B, …:
// a bare letter, "Response C", or {"choice": "C"}. It returns the index.
func ParseChoice(text string, n int) (int, error) {
	if n <= 0 || n > 26 {
		return 0, fmt.Errorf("choice: %d responses cannot be lettered A–Z", n)
	}
	t := strings.TrimSpace(text)
	var o struct {
		Choice string `json:"choice"`
	}
	if i := strings.Index(t, "{"); i >= 0 && json.NewDecoder(strings.NewReader(t[i:])).Decode(&o) == nil && o.Choice != "" {
		t = o.Choice
	}
	letter := func(s string) (int, bool) {
		s = strings.Trim(s, " \t\r\n*\"'`.:;,()[]")
		if len(s) != 1 {
			return 0, false
		}
		k := int(unicode.ToUpper(rune(s[0])) - 'A')
		return k, k >= 0 && k < n
	}
	if k, ok := letter(t); ok {
		return k, nil
	}
	// "Response C", "I choose response C because …": the letter after
	// the first "response".
	// Lowered byte by byte, ASCII only: strings.ToLower may change the
	// length of text that is not valid UTF-8, and i indexes t.
	low := []byte(t)
	for j, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[j] = c + 'a' - 'A'
		}
	}
	if i := strings.Index(string(low), "response"); i >= 0 {
		f := strings.Fields(t[i+len("response"):])
		if len(f) > 0 {
			if k, ok := letter(f[0]); ok {
				return k, nil
			}
		}
	}
	return 0, fmt.Errorf("choice: no response letter A–%c in %.80q", rune('A'+n-1), text)
}

// FormatAnswer writes an answer as the JSON object the prompts ask for.
func FormatAnswer(a agents.AnswerArgs) string {
	if a.RelevantObjects == nil {
		a.RelevantObjects = []string{}
	}
	data, _ := json.MarshalIndent(a, "", "  ") // strings, a bool and a list of strings always encode
	return string(data)
}

// letterOf names the k-th response of a choose prompt.
func letterOf(k int) string { return string(rune('A' + k)) }
