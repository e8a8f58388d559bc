package mapqueries_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// The files of a small dataset that loads: one map of two instances,
// one query, its response.
var validDataset = map[string]string{
	"queries.yaml": "queries:\n  query_01: \"Is there a chair?\"\n",
	"semantic_maps/flat.json": `{"instances": {
 "obj1": {"bbox": {"center": [0.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 40, "results": {"chair": 312.5}},
 "obj2": {"bbox": {"center": [1.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 12, "results": {"couch": 80}}
}}`,
	"responses/flat.json": `{"responses": {
    "query_01": ["obj1"]
}}`,
}

// writeDataset writes files under a new folder, and returns it.
func writeDataset(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A dataset that decodes but that a run could not use was loaded, and
// played with no word (issue 33): each is refused, naming the file and
// the line or the field.
func TestLoadDatasetRefusesWhatARunCannotUse(t *testing.T) {
	t.Parallel()
	if _, err := mapqueries.LoadDataset(writeDataset(t, validDataset)); err != nil {
		t.Fatalf("the base dataset: %v", err)
	}
	for _, tc := range []struct {
		why     string
		file    string // replaced with body; "" body removes it
		body    string
		extra   map[string]string // files added
		wantEnd string
	}{
		{"a query whose id has no number and that types: does not type belongs to no cell, so no agent played it",
			"queries.yaml", "queries:\n  find_chair: \"Is there a chair?\"\n", map[string]string{"responses/flat.json": `{"responses": {"find_chair": ["obj1"]}}`},
			`queries.yaml:2: query "find_chair": no type: the id ends in no number from 1 to 30 (the paper's numbering) and types: does not give one; add "find_chair: descriptive" under types: (descriptive, affordance, negation)`},
		{"types: gives the type an id cannot", "queries.yaml", "queries:\n  find_chair: \"Is there a chair?\"\ntypes:\n  find_chair: descriptive\n",
			map[string]string{"responses/flat.json": `{"responses": {"find_chair": ["obj1"]}}`}, ""},
		{"an empty query was answered blind by every agent", "queries.yaml", "queries:\n  query_01: \"\"\n", nil,
			`queries.yaml:2: query "query_01": empty; want the query's text`},
		{"a query of blanks is as empty", "queries.yaml", "queries:\n  query_02: \"x\"\n  query_01: \"   \"\n",
			map[string]string{"responses/flat.json": `{"responses": {"query_02": [], "query_01": ["obj1"]}}`},
			`queries.yaml:3: query "query_01": empty; want the query's text`},
		{"a map without instances gave every query an empty map", "semantic_maps/flat.json", `{"instances": {}}`,
			map[string]string{"responses/flat.json": `{"responses": {"query_01": []}}`},
			`semantic_maps/flat.json:1: field "instances": empty; a map needs at least one instance`},
		{"an instance with results {} carries evidence for no class, and the map dropped it unseen", "semantic_maps/flat.json", `{"instances": {
 "obj1": {"bbox": {"center": [0.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 40, "results": {"chair": 312.5}},
 "obj2": {"bbox": {"center": [1.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 40, "results": { }}
}}`, nil, `semantic_maps/flat.json:3: instance "obj2": field "results": empty; want the evidence for at least one class, as "results": {"chair": 12.5}`},
		{"a response naming an id the map's file lacks: no answer could hit it", "responses/flat.json", `{"responses": {
    "query_01": ["obj1",
                 "obj7"]
}}`, nil, `responses/flat.json:3: field "responses.query_01[1]": "obj7" is not an instance of the map`},
		{"a responses file with no map was ignored: an annotation no episode scores", "", "", map[string]string{"responses/other.json": `{"responses": {"query_01": []}}`},
			`responses/other.json: no map semantic_maps/other.json for it; a responses file answers the queries on a map of the dataset`},
	} {
		files := map[string]string{}
		for k, v := range validDataset {
			files[k] = v
		}
		if tc.file != "" {
			files[tc.file] = tc.body
		}
		for k, v := range tc.extra {
			files[k] = v
		}
		_, err := mapqueries.LoadDataset(writeDataset(t, files))
		switch {
		case tc.wantEnd == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.why, err)
		case tc.wantEnd != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.wantEnd)):
			t.Errorf("%s:\n got %v\nwant …%s", tc.why, err, tc.wantEnd)
		}
	}
}
