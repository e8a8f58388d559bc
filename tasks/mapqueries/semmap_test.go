package mapqueries_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The paper's own layout: bare strings, an apostrophe, a folded
// continuation line, no types.
const paperQueries = `queries:
  query_01: I'm searching for a bike in the room
  query_09: Is there a microwave that is close to an oven?
  query_15: I am tired, where can I sit?
  query_27: Identify an object that I can safely stand on to reach a high shelf, which
    is not a chair
`

func TestParseQueries(t *testing.T) {
	qs, err := mapqueries.ParseQueries([]byte(paperQueries), "queries.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []mapqueries.Query{
		{ID: "query_01", Text: "I'm searching for a bike in the room", Type: mapqueries.TypeDescriptive},
		{ID: "query_09", Text: "Is there a microwave that is close to an oven?", Type: mapqueries.TypeDescriptive},
		{ID: "query_15", Text: "I am tired, where can I sit?", Type: mapqueries.TypeAffordance},
		{ID: "query_27", Text: "Identify an object that I can safely stand on to reach a high shelf, which is not a chair", Type: mapqueries.TypeNegation},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("got %+v\nwant %+v", qs, want)
	}

	typed := "# header\n\nqueries:\n  q1: \"Say \\\"hi\\\" \\u00e9\"   # trailing comment\n  q2: 'it''s # not a comment'\n" +
		"types:\n  q1: affordance\n  q2: negation\ndifficulty:\n  q2: difficult\n"
	qs, err = mapqueries.ParseQueries([]byte(typed), "queries.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want = []mapqueries.Query{
		{ID: "q1", Text: `Say "hi" é`, Type: mapqueries.TypeAffordance},
		{ID: "q2", Text: "it's # not a comment", Type: mapqueries.TypeNegation, Difficulty: mapqueries.Difficult},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("typed: got %+v\nwant %+v", qs, want)
	}
}

func TestParseQueriesErrors(t *testing.T) {
	for _, c := range []struct{ why, data, want string }{
		{"a tab indents", "queries:\n\tq1: x\n", "queries.yaml:2: tab in indentation; YAML indents with spaces"},
		{"a nested mapping is not a query's text", "queries:\n  q1: x\n    q2: y\n", `queries.yaml:3: mapping values are not allowed in this context (a text that holds ": " is quoted)`},
		{"uneven entries", "queries:\n  q1: x\n   q2: y\n", `queries.yaml:3: mapping values are not allowed in this context (a text that holds ": " is quoted)`},
		{"a duplicate key would hide a query", "queries:\n  q1: x\n  q1: y\n", `queries.yaml:3: key "q1" appears twice in section "queries" (first on line 2)`},
		{"an unknown type", "queries:\n  q1: x\ntypes:\n  q1: spatial\n", `queries.yaml:4: types: q1: "spatial" is not a query type (want descriptive, affordance, negation)`},
		{"a type for no query", "queries:\n  q1: x\ntypes:\n  q9: negation\n", `queries.yaml:4: types: "q9" is not a query`},
		{"a bad difficulty", "queries:\n  q1: x\ndifficulty:\n  q1: hard\n", `queries.yaml:4: difficulty: q1: "hard" is not a difficulty (want easy or difficult)`},
		{"an unknown section", "queries:\n  q1: x\nanswers:\n  q1: y\n", `queries.yaml:3: unknown section "answers"; want queries, types or difficulty`},
		{"no queries at all", "types:\n  q1: negation\n", "queries.yaml: no queries: section"},
		{"an unterminated quote", "queries:\n  q1: \"open\n", `queries.yaml:2: found unexpected end of stream (a quoted text not closed?)`},
		{"a list is not a section of entries", "queries:\n  - x\n", `queries.yaml:2: want "key: value", got "- x"`},
		{"a list is not a query's text", "queries:\n  q1: [a, b]\n", `queries.yaml:2: key "q1": want text, got a list; quote the text`},
		{"a key without a value", "queries:\n  q1:\n", `queries.yaml:2: key "q1" has no value; want key: "text"`},
		{"an entry before any section", "  q1: x\n", `queries.yaml:1: indented entry "q1" before any section`},
		{"a top-level scalar", "queries: x\n", `queries.yaml:1: top-level key "queries" must open a section ("queries:" alone on its line), got a value`},
		{"junk after a quoted string", "queries:\n  q1: \"a\" b\n", `queries.yaml:2: did not find expected key`},
	} {
		_, err := mapqueries.ParseQueries([]byte(c.data), "queries.yaml")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.why, err, c.want)
		}
	}
}

// FuzzQueries checks that ParseQueries never panics and that what it
// accepts is written back by EncodeQueries into the same queries.
func FuzzQueries(f *testing.F) {
	f.Add([]byte(paperQueries))
	f.Add(mapqueries.EncodeQueries(mapqueries.BuiltinQueries()))
	for _, s := range []string{
		"", "queries:\n", "queries: {}\n", "---\nqueries:\n  q: a\n", "queries:\n  \"q: 1\": 'x'\n",
		"queries:\n  q1: a\n  \n    b\n", "\ufeffqueries:\n  q1: a\r\n", "queries:\n  q1: \"\\x41\"\n",
		"queries:\n  q1: a #c\n    # d\n    e\n", "queries:\n  q1: x\ntypes:\n  q1: negation\ndifficulty:\n  q1: easy\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		qs, err := mapqueries.ParseQueries(data, "queries.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "queries.yaml:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		enc := mapqueries.EncodeQueries(qs)
		back, err := mapqueries.ParseQueries(enc, "queries.yaml")
		if err != nil {
			t.Fatalf("written queries do not read back: %v\n%s", err, enc)
		}
		if !reflect.DeepEqual(qs, back) {
			t.Fatalf("read back %+v\nwant %+v\nfile:\n%s", back, qs, enc)
		}
	})
}

// misread are the built-in queries the reference reading gets wrong, and
// why: its vocabulary comes from the class and affordance tables, not
// from these queries' words, so it may miss one (the project's own
// queries in two wordings measure how often: scenes'
// TestWordingGeneralises). A query that starts to parse right must leave
// the list.
var misread = map[string]string{}

// TestTemplatesParse holds every built-in query's text to its structured
// reading, but for the known misreadings: the reference agents see only
// the text.
func TestTemplatesParse(t *testing.T) {
	ts := mapqueries.Templates()
	if len(ts) < 30 {
		t.Fatalf("%d templates, want at least 30", len(ts))
	}
	cells := map[string]int{}
	for _, tm := range ts {
		got, ok := scenes.ParseObjectQuery(tm.Text)
		if right := ok && reflect.DeepEqual(got, tm.Request); right == (misread[tm.ID] != "") {
			t.Errorf("%s %q parses as %v (ok %v), want %v; listed as misread: %q", tm.ID, tm.Text, got, ok, tm.Request, misread[tm.ID])
		}
		if tm.Type != mapqueries.DefaultType(tm.ID) {
			t.Errorf("%s: type %s, but the paper's numbering says %s", tm.ID, tm.Type, mapqueries.DefaultType(tm.ID))
		}
		cells[tm.Type+"/"+tm.Difficulty]++
	}
	for _, ty := range mapqueries.QueryTypes() {
		for _, d := range []string{mapqueries.Easy, mapqueries.Difficult} {
			if cells[ty+"/"+d] == 0 {
				t.Errorf("no %s %s query", d, ty)
			}
		}
	}
}

// TestResolveOverDetectedMapIsTruth: over the detected map, parsing a
// query's text and resolving it gives the truth, in order, for every
// built-in map and query the reference reading does not misread: the
// truth is what a perfect reader of the map answers, and the text of
// every query says what its template means.
func TestResolveOverDetectedMapIsTruth(t *testing.T) {
	d := mapqueries.Builtin(1)
	for i, n := range mapqueries.BuiltinSizes {
		g := mapqueries.Generate(1, i, n)
		for _, q := range d.Queries {
			if misread[q.ID] != "" {
				continue
			}
			req, ok := scenes.ParseObjectQuery(q.Text)
			if !ok {
				t.Fatalf("%s does not parse", q.ID)
			}
			got := scenes.ResolveObjects(g.Map, req)
			if want := d.Truth[g.Map.Name][q.ID]; !slices.Equal(got, want) {
				t.Errorf("%s %s: resolved %v, truth %v", g.Map.Name, q.ID, got, want)
			}
		}
	}
}

func TestBuiltin(t *testing.T) {
	d := mapqueries.Builtin(1)
	if len(d.Maps) != len(mapqueries.BuiltinSizes) {
		t.Fatalf("%d maps", len(d.Maps))
	}
	emptyTruths, answers, confused, total := 0, 0, 0, 0
	for i, m := range d.Maps {
		n := mapqueries.BuiltinSizes[i]
		// The map lacks only what the detector left unknown (about 4%).
		if len(m.Instances) > n || len(m.Instances) < n*85/100 {
			t.Errorf("%s: %d objects for %d generated", m.Name, len(m.Instances), n)
		}
		g := mapqueries.Generate(1, i, n)
		if !bytes.Contains(g.File, []byte(`"unknown"`)) {
			t.Errorf("%s: the file has no unknown instance", m.Name)
		}
		for j, in := range m.Instances {
			total++
			if in.Best() != g.True.Instances[j].Best() {
				confused++
			}
			if in.Evidence <= 1 {
				t.Errorf("%s %s: evidence %g; scores should be unnormalised evidence", m.Name, in.ID, in.Evidence)
			}
		}
		for _, q := range d.Queries {
			if len(d.Truth[m.Name][q.ID]) == 0 {
				emptyTruths++
			} else {
				answers++
			}
		}
	}
	// The detector must confuse enough for the task to be hard, not so
	// much that the map is noise.
	if rate := float64(confused) / float64(total); rate < 0.08 || rate > 0.3 {
		t.Errorf("detector confusion rate %.2f, want within [0.08, 0.3]", rate)
	}
	if emptyTruths < 10 || answers < 150 {
		t.Errorf("%d empty truths and %d answered pairs; want both kinds in number", emptyTruths, answers)
	}
	t.Logf("maps %d, confusion %d/%d, empty truths %d, answered %d", len(d.Maps), confused, total, emptyTruths, answers)

	again := mapqueries.Builtin(1)
	if !reflect.DeepEqual(d, again) {
		t.Error("Builtin(1) differs between two calls")
	}
	if reflect.DeepEqual(d.Maps, mapqueries.Builtin(2).Maps) {
		t.Error("Builtin(2) gives the maps of Builtin(1)")
	}
}

// TestWriteRead: the built-in dataset written in the public layout reads
// back as the same dataset, byte-stable.
func TestWriteRead(t *testing.T) {
	d := mapqueries.Builtin(3)
	dir := filepath.Join(t.TempDir(), "builtin")
	if err := d.Write(dir); err != nil {
		t.Fatal(err)
	}
	back, err := mapqueries.LoadDataset(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d, back) {
		for i := range d.Maps {
			if !reflect.DeepEqual(d.Maps[i], back.Maps[i]) {
				t.Errorf("map %s differs after writing and reading", d.Maps[i].Name)
			}
		}
		if !reflect.DeepEqual(d.Queries, back.Queries) || !reflect.DeepEqual(d.Truth, back.Truth) {
			t.Error("queries or truth differ after writing and reading")
		}
	}
	// Without sources the maps are encoded, and they still read back the
	// same: the evidence written is the generator's own numbers.
	encoded := *d
	encoded.Sources = nil
	dir2 := filepath.Join(t.TempDir(), "encoded")
	if err := encoded.Write(dir2); err != nil {
		t.Fatal(err)
	}
	back2, err := mapqueries.LoadDataset(dir2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Maps, back2.Maps) || !reflect.DeepEqual(d.Truth, back2.Truth) {
		t.Error("maps encoded from the dataset do not read back the same")
	}
	// The written map is the generator's own file, unknown instances
	// included; and encoding the loaded map gives back the same evidence.
	g := mapqueries.Generate(3, 0, mapqueries.BuiltinSizes[0])
	written, err := os.ReadFile(filepath.Join(dir, mapqueries.MapsDir, g.Map.Name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, g.File) || !bytes.Contains(written, []byte(`"unknown"`)) {
		t.Error("the written map is not the generator's file with its unknown instances")
	}
	for _, in := range g.Map.Instances {
		var one bytes.Buffer
		if err := scenes.EncodeVoxeland(&one, &scenes.SemanticMap{Instances: []scenes.Instance{in}}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(one.String(), "\n")
		results := strings.TrimSpace(lines[len(lines)-5])
		if !bytes.Contains(g.File, []byte(results)) || !bytes.Contains(written, []byte(results)) {
			t.Errorf("%s: %s is not the generator's evidence", in.ID, results)
		}
	}
}

// TestGoldenDataset keeps a small dataset in the public layout under
// testdata: Write must reproduce it byte for byte and LoadDataset must read
// it as the dataset it came from. Rewrite with -update.
func TestGoldenDataset(t *testing.T) {
	d := &mapqueries.Dataset{Name: "golden", Queries: mapqueries.BuiltinQueries(), Truth: map[string]map[string][]string{}, Sources: map[string][]byte{}}
	for i, n := range []int{10, 20} {
		g := mapqueries.Generate(42, i, n)
		d.Maps = append(d.Maps, g.Map)
		d.Sources[g.Map.Name] = g.File
		d.Truth[g.Map.Name] = mapqueries.TruthOf(g.Map)
	}
	golden := filepath.Join("testdata", "golden")
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		if err := d.Write(golden); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "golden")
	if err := d.Write(dir); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(golden, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(golden, path)
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Errorf("%s: not written: %v", rel, err)
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file (run with -update if intended)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	back, err := mapqueries.LoadDataset(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d, back) {
		t.Error("the golden dataset does not read back as the dataset it was written from")
	}
}

func TestLoadDatasetErrors(t *testing.T) {
	base := func(t *testing.T) string {
		dir := t.TempDir()
		d := &mapqueries.Dataset{Name: "x", Queries: mapqueries.BuiltinQueries()[:2], Truth: map[string]map[string][]string{}}
		g := mapqueries.Generate(5, 0, 10)
		d.Maps = []*scenes.SemanticMap{g.Map}
		d.Truth[g.Map.Name] = map[string][]string{"query_01": {}, "query_02": {g.Map.Instances[0].ID}}
		if err := d.Write(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, c := range []struct {
		why    string
		change func(dir string)
		want   string
	}{
		{"a map needs its responses", func(dir string) { os.Remove(filepath.Join(dir, "responses", "house_01.json")) },
			"map semantic_maps/house_01.json has no responses/house_01.json"},
		{"an id listed twice", func(dir string) {
			os.WriteFile(filepath.Join(dir, "responses", "house_01.json"), []byte(`{"responses": {"query_01": ["obj0", "obj0"], "query_02": []}}`), 0o644)
		}, `responses/house_01.json: query "query_01": "obj0" listed twice`},
		{"every query needs an answer", func(dir string) {
			os.WriteFile(filepath.Join(dir, "responses", "house_01.json"), []byte(`{"responses": {"query_01": []}}`), 0o644)
		}, `responses/house_01.json: query "query_02": no response`},
		{"an answer to no query", func(dir string) {
			os.WriteFile(filepath.Join(dir, "responses", "house_01.json"), []byte(`{"responses": {"query_01": [], "query_02": [], "query_99": []}}`), 0o644)
		}, `responses/house_01.json: response for "query_99", which is not a query of queries.yaml`},
		{"a malformed map names file, instance and field", func(dir string) {
			os.WriteFile(filepath.Join(dir, "semantic_maps", "house_01.json"), []byte(`{"instances": {"obj4": {"bbox": {"center": [0,0,0], "size": [1,1]}, "n_observations": 1, "results": {"a": 1}}}}`), 0o644)
		}, `semantic_maps/house_01.json: instance "obj4": field "bbox.size": want 3 numbers, got 2`},
		{"a folder without maps", func(dir string) { os.RemoveAll(filepath.Join(dir, "semantic_maps")) }, "no maps in semantic_maps/"},
	} {
		dir := base(t)
		c.change(dir)
		_, err := mapqueries.LoadDataset(dir)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s", c.why, err, c.want)
		}
	}
}

// TestLoadDatasetRefusesAnIDTheMapLacks: a response naming an id its
// map's file lacks was loaded with a warning, and every agent lost the
// pair whatever it answered (issue 33); it is refused, naming the line
// and the field.
func TestLoadDatasetRefusesAnIDTheMapLacks(t *testing.T) {
	dir := t.TempDir()
	d := &mapqueries.Dataset{Name: "x", Queries: mapqueries.BuiltinQueries()[:1], Truth: map[string]map[string][]string{}}
	g := mapqueries.Generate(5, 0, 10)
	d.Maps = []*scenes.SemanticMap{g.Map}
	d.Truth[g.Map.Name] = map[string][]string{"query_01": {"obj999"}}
	if err := d.Write(dir); err != nil {
		t.Fatal(err)
	}
	_, err := mapqueries.LoadDataset(dir)
	want := `responses/house_01.json:3: field "responses.query_01[0]": "obj999" is not an instance of the map`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want …%s", err, want)
	}
}

// A map file that gives an instance id twice loads (JSON allows it, and
// the last is read), with a warning naming the file and the id, so that
// the instance lost is not lost unseen; a map without repeats warns of
// nothing.
func TestLoadDatasetWarnsOfDuplicateInstances(t *testing.T) {
	inst := func(class string) string {
		return `{"bbox": {"center": [0, 0, 0.4], "size": [0.5, 0.5, 0.8]}, "n_observations": 9, "results": {"` + class + `": 10}}`
	}
	for _, tc := range []struct {
		why, instances string
		want           []string
	}{
		{"no repeat", `"obj1": ` + inst("chair") + `, "obj2": ` + inst("couch"), nil},
		{"obj1 three times, obj2 twice: each named once, with its count",
			`"obj1": ` + inst("chair") + `, "obj2": ` + inst("couch") + `, "obj1": ` + inst("bed") + `, "obj2": ` + inst("bed") + `, "obj1": ` + inst("tv"),
			[]string{`semantic_maps/flat.json: instance "obj1" appears 3 times; only the last is read`,
				`semantic_maps/flat.json: instance "obj2" appears 2 times; only the last is read`}},
	} {
		dir := t.TempDir()
		for name, body := range map[string]string{
			"semantic_maps/flat.json": `{"other": {"obj1": 1, "obj1": 2}, "instances": {` + tc.instances + `}}`,
			"queries.yaml":            "queries:\n  query_01: \"Is there a chair?\"\n",
			"responses/flat.json":     `{"responses": {"query_01": ["obj1"]}}`,
		} {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, err := mapqueries.LoadDataset(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		if !reflect.DeepEqual(d.Warnings, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.why, d.Warnings, tc.want)
		}
	}
}

// BenchmarkLoadMap decodes, normalises and sorts a 150-object map from its
// Voxeland file, and renders it for a prompt as JSON (the budget:
// 2 ms).
func BenchmarkLoadMap(b *testing.B) {
	g := mapqueries.Generate(1, 99, 150)
	b.SetBytes(int64(len(g.File)))
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := scenes.DecodeVoxeland(bytes.NewReader(g.File), "m.json", scenes.VoxelandOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode+render", func(b *testing.B) {
		for b.Loop() {
			m, err := scenes.DecodeVoxeland(bytes.NewReader(g.File), "m.json", scenes.VoxelandOptions{})
			if err != nil {
				b.Fatal(err)
			}
			_ = m.RenderJSON(scenes.RenderUncertainty)
		}
	})
}

// BenchmarkResolve answers all 30 built-in queries over a 150-object map.
func BenchmarkResolve(b *testing.B) {
	g := mapqueries.Generate(1, 99, 150)
	var reqs []scenes.ObjectQuery
	for _, t := range mapqueries.Templates() {
		reqs = append(reqs, t.Request)
	}
	for b.Loop() {
		for _, r := range reqs {
			_ = scenes.ResolveObjects(g.Map, r)
		}
	}
}
