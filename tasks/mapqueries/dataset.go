package mapqueries

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// Query types (the agentic-workflows paper, section 4.3).
const (
	TypeDescriptive = "descriptive"
	TypeAffordance  = "affordance"
	TypeNegation    = "negation"
)

// Difficulties.
const (
	Easy      = "easy"
	Difficult = "difficult"
)

// QueryTypes lists the types in report order.
func QueryTypes() []string { return []string{TypeDescriptive, TypeAffordance, TypeNegation} }

// Query is one query of a dataset.
type Query struct {
	ID   string // "query_01"
	Text string
	// Type is descriptive, affordance or negation, from queries.yaml's
	// types: section or the id's number (DefaultType); a query that has
	// neither is refused.
	Type string
	// Difficulty is easy or difficult; "" when queries.yaml does not say.
	Difficulty string
}

// Dataset is a set of maps, queries and annotated answers.
type Dataset struct {
	Name    string
	Maps    []*scenes.SemanticMap
	Queries []Query
	// Truth[map][query] is the annotated answer, most relevant first,
	// possibly empty.
	Truth map[string]map[string][]string
	// Sources are the maps' Voxeland files by map name, unknown
	// instances and all, when the dataset came from files (LoadDataset)
	// or from the generator (Builtin). Write copies a source as it is
	// rather than encoding the map, so a dataset written again keeps what
	// its maps dropped; a map without a source is encoded.
	Sources map[string][]byte
	// Warnings are faults LoadDataset tolerated, one line each naming the
	// file (an instance id a map file gives twice).
	Warnings []string
	// Near is the distance in metres within which the truth counts two
	// objects' centres near each other ("a chair near the desk"), from
	// the folder's DescriptionFile; 0 when the dataset does not say, and
	// then no prompt may say it for the dataset. The built-in dataset's
	// is scenes.MapNearDistance.
	Near float64
	// Origins are the maps' origins by map name ("ScanNet", "SceneNN"),
	// from the DescriptionFile; nil when the dataset does not say, else
	// one for every map.
	Origins map[string]string
}

// Map returns the map named name, or nil.
func (d *Dataset) Map(name string) *scenes.SemanticMap {
	for _, m := range d.Maps {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Layout of a dataset folder.
const (
	MapsDir      = "semantic_maps"
	ResponsesDir = "responses"
	QueriesFile  = "queries.yaml"
)

// DefaultType is the paper's numbering: queries 1–10 descriptive, 11–20
// affordance, 21–30 negation, judged by the number the id ends with; ""
// past 30 or without a number.
func DefaultType(id string) string {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(id[i:])
	switch {
	case err != nil || n < 1 || n > 30:
		return ""
	case n <= 10:
		return TypeDescriptive
	case n <= 20:
		return TypeAffordance
	}
	return TypeNegation
}

// LoadDataset reads a dataset folder, dropping unknown instances from its
// maps.
func LoadDataset(dir string) (*Dataset, error) {
	return LoadDatasetWith(dir, scenes.VoxelandOptions{})
}

// LoadDatasetWith reads a dataset folder with the given map options.
// Every map needs its responses file, which must answer every query with
// ids of that map's file (an answer may name an instance the options
// drop: it stays in the truth, unanswerable, as annotated), and every
// responses file its map. A map needs an instance, an instance the
// evidence for a class, and a query its text and type.
func LoadDatasetWith(dir string, opts scenes.VoxelandOptions) (*Dataset, error) {
	d := &Dataset{Name: filepath.Base(filepath.Clean(dir)), Truth: map[string]map[string][]string{}, Sources: map[string][]byte{}}
	qdata, err := os.ReadFile(filepath.Join(dir, QueriesFile))
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	var desc Description
	switch ddata, err := os.ReadFile(filepath.Join(dir, DescriptionFile)); {
	case errors.Is(err, fs.ErrNotExist):
		// No description: the dataset defines no near rule and no origins.
	case err != nil:
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	default:
		if desc, err = ParseDescription(ddata, DescriptionFile); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
	}
	if d.Queries, err = ParseQueries(qdata, QueriesFile); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, MapsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("dataset %s: no maps in %s/", dir, MapsDir)
	}
	slices.Sort(files)
	for _, f := range files {
		rel := filepath.ToSlash(filepath.Join(MapsDir, filepath.Base(f)))
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
		m, all, err := loadMap(src, rel, opts)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
		if err := checkMap(src, rel, all); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
		d.Warnings = append(d.Warnings, duplicateInstances(src, rel)...)
		if d.Map(m.Name) != nil {
			return nil, fmt.Errorf("dataset %s: two files give the map name %q", dir, m.Name)
		}
		d.Sources[m.Name] = src
		rfile := filepath.ToSlash(filepath.Join(ResponsesDir, m.Name+".json"))
		rdata, err := os.ReadFile(filepath.Join(dir, rfile))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("dataset %s: map %s has no %s", dir, rel, rfile)
		}
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
		truth, err := ParseResponses(rdata, rfile, d.Queries, all)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
		d.Maps = append(d.Maps, m)
		d.Truth[m.Name] = truth
	}
	names := make([]string, len(d.Maps))
	for i, m := range d.Maps {
		names[i] = m.Name
	}
	if err := desc.checkOrigins(names, DescriptionFile); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	d.Near, d.Origins = desc.Near, desc.Origins
	// A responses file with no map would be an annotation that no episode
	// scores: a map renamed, or left out by mistake.
	rfiles, err := filepath.Glob(filepath.Join(dir, ResponsesDir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(rfiles)
	for _, f := range rfiles {
		if name := scenes.MapName(f); d.Map(name) == nil {
			return nil, fmt.Errorf("dataset %s: %s/%s: no map %s/%s.json for it; a responses file answers the queries on a map of the dataset",
				dir, ResponsesDir, filepath.Base(f), MapsDir, name)
		}
	}
	return d, nil
}

// checkMap refuses a map file that decodes but gives a run nothing to
// work on: no instance at all ("instances": {}), or an instance whose
// "results" is an empty object, evidence for no class, which the map
// would drop unseen. ids are every instance id of the file. Errors name
// the file and the line of the field.
func checkMap(src []byte, name string, ids map[string]bool) error {
	if len(ids) == 0 {
		return fmt.Errorf("%s:%d: field \"instances\": empty; a map needs at least one instance", name, lineOf(src, `"instances"`))
	}
	var f struct {
		Instances map[string]struct {
			Results json.RawMessage `json:"results"`
		} `json:"instances"`
	}
	if json.Unmarshal(src, &f) != nil {
		return nil // the decoder has read it; a repeat is warned of
	}
	bad := make([]string, 0, 1)
	for id, in := range f.Instances {
		if r := bytes.TrimSpace(in.Results); len(r) >= 2 && r[0] == '{' && len(bytes.TrimSpace(r[1:len(r)-1])) == 0 {
			bad = append(bad, id)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad) // the instance named must not depend on map order
	return fmt.Errorf("%s:%d: instance %q: field \"results\": empty; want the evidence for at least one class, as \"results\": {\"chair\": 12.5}",
		name, lineOf(src, strconv.Quote(bad[0])), bad[0])
}

// lineOf is the line, from 1, of the first occurrence of s in src, or 0
// when it is not there.
func lineOf(src []byte, s string) int {
	i := bytes.Index(src, []byte(s))
	if i < 0 {
		return 0
	}
	return bytes.Count(src[:i], []byte("\n")) + 1
}

// loadMap decodes a map keeping every instance, to know the file's ids,
// then drops what opts drop.
func loadMap(src []byte, name string, opts scenes.VoxelandOptions) (*scenes.SemanticMap, map[string]bool, error) {
	m, err := scenes.DecodeVoxeland(bytes.NewReader(src), name, scenes.VoxelandOptions{KeepUnknown: true})
	if err != nil {
		return nil, nil, err
	}
	all := make(map[string]bool, len(m.Instances))
	for _, in := range m.Instances {
		all[in.ID] = true
	}
	if !opts.KeepUnknown {
		m.Instances = slices.DeleteFunc(m.Instances, func(in scenes.Instance) bool {
			return in.Best() == "" || in.Best() == scenes.ClassUnknown
		})
	}
	return m, all, nil
}

// duplicateInstances warns of each instance id that a map file gives
// more than once: JSON lets an object repeat a key, and decoding keeps
// the last, so the others would vanish unseen. name prefixes the
// warnings. A file that is not an object of instances gives none (the
// decoder has said what is wrong with it).
func duplicateInstances(src []byte, name string) []string {
	dec := json.NewDecoder(bytes.NewReader(src))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		if k != "instances" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		count := map[string]int{}
		var order []string
		for dec.More() {
			id, err := dec.Token()
			var skip json.RawMessage
			if err != nil || dec.Decode(&skip) != nil {
				return nil
			}
			s, _ := id.(string)
			if count[s]++; count[s] == 2 {
				order = append(order, s)
			}
		}
		var out []string
		for _, id := range order {
			out = append(out, fmt.Sprintf("%s: instance %q appears %d times; only the last is read", name, id, count[id]))
		}
		return out
	}
	return nil
}

// ParseQueries reads queries.yaml: the queries in file order, with their
// type and difficulty from the optional types: and difficulty: sections
// (the type defaulting to DefaultType). name prefixes errors.
func ParseQueries(data []byte, name string) ([]Query, error) {
	secs, err := parseYAMLSections(data, name)
	if err != nil {
		return nil, err
	}
	return queriesOf(secs, data, name, "")
}

// queriesOf is ParseQueries over parsed sections; extra names one more
// section the caller reads itself ("" for none).
func queriesOf(secs yamlSections, data []byte, name, extra string) ([]Query, error) {
	for _, s := range secs.names {
		if s != "queries" && s != "types" && s != "difficulty" && (extra == "" || s != extra) {
			return nil, fmt.Errorf("%s:%d: unknown section %q; want queries, types or difficulty", name, sectionLine(data, s), s)
		}
	}
	if _, ok := secs.entries["queries"]; !ok {
		return nil, fmt.Errorf("%s: no queries: section", name)
	}
	var qs []Query
	index := map[string]int{}
	for _, e := range secs.get("queries") {
		index[e.Key] = len(qs)
		qs = append(qs, Query{ID: e.Key, Text: e.Value, Type: DefaultType(e.Key)})
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: the queries: section is empty", name)
	}
	for _, e := range secs.get("types") {
		i, ok := index[e.Key]
		if !ok {
			return nil, fmt.Errorf("%s:%d: types: %q is not a query", name, e.Line, e.Key)
		}
		if !slices.Contains(QueryTypes(), e.Value) {
			return nil, fmt.Errorf("%s:%d: types: %s: %q is not a query type (want %s)", name, e.Line, e.Key, e.Value, strings.Join(QueryTypes(), ", "))
		}
		qs[i].Type = e.Value
	}
	for _, e := range secs.get("difficulty") {
		i, ok := index[e.Key]
		if !ok {
			return nil, fmt.Errorf("%s:%d: difficulty: %q is not a query", name, e.Line, e.Key)
		}
		if e.Value != Easy && e.Value != Difficult {
			return nil, fmt.Errorf("%s:%d: difficulty: %s: %q is not a difficulty (want easy or difficult)", name, e.Line, e.Key, e.Value)
		}
		qs[i].Difficulty = e.Value
	}
	if err := checkQueries(qs, secs.get("queries"), name); err != nil {
		return nil, err
	}
	return qs, nil
}

// checkQueries refuses what a parsed queries.yaml may hold and a run
// cannot use: a query with no text, which every agent would answer
// blind, and one with no type, which belongs to no cell of the grid and
// would be played by no agent. entries are the queries: section's, in
// the order of qs, for their lines. (It reads what the YAML parser gave,
// whichever parser that is.)
func checkQueries(qs []Query, entries []yamlEntry, name string) error {
	for i, q := range qs {
		line := 0
		if i < len(entries) {
			line = entries[i].Line
		}
		switch {
		case strings.TrimSpace(q.Text) == "":
			return fmt.Errorf("%s:%d: query %q: empty; want the query's text", name, line, q.ID)
		case q.Type == "":
			return fmt.Errorf("%s:%d: query %q: no type: the id ends in no number from 1 to 30 (the paper's numbering) and types: does not give one; add %q under types: (%s)",
				name, line, q.ID, q.ID+": descriptive", strings.Join(QueryTypes(), ", "))
		}
	}
	return nil
}

func sectionLine(data []byte, section string) int {
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, section+":") || strings.HasPrefix(l, strconv.Quote(section)+":") {
			return i + 1
		}
	}
	return 0
}

// EncodeQueries writes queries.yaml for qs: the queries, and the types and
// difficulty sections for those that have them.
func EncodeQueries(qs []Query) []byte {
	entries := map[string][]yamlEntry{}
	for _, q := range qs {
		entries["queries"] = append(entries["queries"], yamlEntry{Key: q.ID, Value: q.Text})
		if q.Type != "" {
			entries["types"] = append(entries["types"], yamlEntry{Key: q.ID, Value: q.Type})
		}
		if q.Difficulty != "" {
			entries["difficulty"] = append(entries["difficulty"], yamlEntry{Key: q.ID, Value: q.Difficulty})
		}
	}
	return writeYAMLSections("ambibench semantic-map queries, with their type and difficulty.",
		[]string{"queries", "types", "difficulty"}, entries)
}

// ParseResponses reads a responses file: every query of qs answered by a
// list of distinct ids, each an instance of the map's file (ids; an
// instance the map drops as unknown counts, and stays in the truth,
// unanswerable, as annotated). An id the file lacks is refused, naming
// its line and field: no answer drawn from the map could hit it. name
// prefixes errors.
func ParseResponses(data []byte, name string, qs []Query, ids map[string]bool) (map[string][]string, error) {
	var f struct {
		Responses map[string][]string `json:"responses"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, fmt.Errorf("%s: field %q: want %s, got JSON %s", name, te.Field, te.Type, te.Value)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Responses == nil {
		return nil, fmt.Errorf("%s: field \"responses\": missing", name)
	}
	out := make(map[string][]string, len(qs))
	for _, q := range qs {
		r, ok := f.Responses[q.ID]
		if !ok {
			return nil, fmt.Errorf("%s: query %q: no response", name, q.ID)
		}
		seen := map[string]bool{}
		for j, id := range r {
			if !ids[id] {
				// No answer drawn from the map could hit it: every agent
				// would lose the pair whatever it did.
				return nil, fmt.Errorf("%s:%d: field \"responses.%s[%d]\": %q is not an instance of the map",
					name, responseLine(data, q.ID, id), q.ID, j, id)
			}
			if seen[id] {
				return nil, fmt.Errorf("%s: query %q: %q listed twice", name, q.ID, id)
			}
			seen[id] = true
		}
		out[q.ID] = append([]string{}, r...)
	}
	extra := make([]string, 0, len(f.Responses))
	for id := range f.Responses {
		extra = append(extra, id)
	}
	slices.Sort(extra) // the first stray id reported must not depend on map order
	for _, id := range extra {
		if !slices.ContainsFunc(qs, func(q Query) bool { return q.ID == id }) {
			return nil, fmt.Errorf("%s: response for %q, which is not a query of queries.yaml", name, id)
		}
	}
	return out, nil
}

// responseLine is the line of id in query qid's list of a responses
// file: where the quoted id first follows the query's key, or the key's
// own line when the id is written otherwise (escaped); 0 when neither is
// found.
func responseLine(data []byte, qid, id string) int {
	k := bytes.Index(data, []byte(strconv.Quote(qid)))
	if k < 0 {
		return 0
	}
	if v := bytes.Index(data[k:], []byte(strconv.Quote(id))); v >= 0 {
		return bytes.Count(data[:k+v], []byte("\n")) + 1
	}
	return bytes.Count(data[:k], []byte("\n")) + 1
}

// EncodeResponses writes a responses file, queries in qs's order.
func EncodeResponses(qs []Query, truth map[string][]string) []byte {
	var b bytes.Buffer
	b.WriteString("{\n    \"responses\": {")
	for i, q := range qs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n        " + quoteJSON(q.ID) + ": [")
		for j, id := range truth[q.ID] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteJSON(id))
		}
		b.WriteByte(']')
	}
	b.WriteString("\n    }\n}\n")
	return b.Bytes()
}

// Write writes the dataset into dir in the public layout, creating the
// folders. Files are written whole and in a fixed order, so the same
// dataset gives the same bytes.
func (d *Dataset) Write(dir string) error {
	for _, sub := range []string{MapsDir, ResponsesDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, QueriesFile), EncodeQueries(d.Queries), 0o644); err != nil {
		return err
	}
	if d.Near > 0 || d.Origins != nil {
		names := make([]string, len(d.Maps))
		for i, m := range d.Maps {
			names[i] = m.Name
		}
		if err := (Description{Origins: d.Origins}).checkOrigins(names, "dataset "+d.Name); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, DescriptionFile), EncodeDescription(d.Near, d.Origins, names), 0o644); err != nil {
			return err
		}
	}
	for _, m := range d.Maps {
		if m.Name == "" || strings.ContainsAny(m.Name, `/\`) || m.Name == "." || m.Name == ".." {
			return fmt.Errorf("dataset %s: map name %q cannot be a file name", d.Name, m.Name)
		}
		src, ok := d.Sources[m.Name]
		if !ok {
			var b bytes.Buffer
			if err := scenes.EncodeVoxeland(&b, m); err != nil {
				return err
			}
			src = b.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, MapsDir, m.Name+".json"), src, 0o644); err != nil {
			return err
		}
		truth, ok := d.Truth[m.Name]
		if !ok {
			return fmt.Errorf("dataset %s: map %s has no truth", d.Name, m.Name)
		}
		if err := os.WriteFile(filepath.Join(dir, ResponsesDir, m.Name+".json"), EncodeResponses(d.Queries, truth), 0o644); err != nil {
			return err
		}
	}
	return nil
}
