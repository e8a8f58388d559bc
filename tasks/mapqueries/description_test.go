package mapqueries_test

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// A dataset says its near rule and its maps' origins in dataset.yaml, or
// says neither; the built-in dataset defines near as scenes.MapNearDistance
// and, generated, has no origins.
func TestDescription(t *testing.T) {
	for _, c := range []struct {
		why, data string
		near      float64
		origins   map[string]string
	}{
		{"both", "truth:\n  near: 1.5\norigins:\n  scene0011_00: ScanNet\n  \"025\": SceneNN\n", 1.5, map[string]string{"scene0011_00": "ScanNet", "025": "SceneNN"}},
		{"near alone, quoted, in metres", "truth:\n  near: \"2 m\"\n", 2, nil},
		{"origins alone", "origins:\n  a: x\n", 0, map[string]string{"a": "x"}},
		{"comments alone say nothing", "# nothing\n", 0, nil},
	} {
		d, err := mapqueries.ParseDescription([]byte(c.data), "dataset.yaml")
		if err != nil || d.Near != c.near || !maps.Equal(d.Origins, c.origins) || (d.Origins == nil) != (c.origins == nil) {
			t.Errorf("%s: got %+v, %v; want near %v, origins %v", c.why, d, err, c.near, c.origins)
		}
	}
	for _, c := range []struct{ why, data, want string }{
		{"an unknown section", "truth:\n  near: 1\nmaps:\n  a: b\n", `dataset.yaml:3: unknown section "maps"`},
		{"an unknown rule", "truth:\n  far: 3\n", `dataset.yaml:2: truth: unknown rule "far"`},
		{"near is no number", "truth:\n  near: close\n", `dataset.yaml:2: truth: near: "close" is not a distance`},
		{"near is 0", "truth:\n  near: 0\n", `dataset.yaml:2: truth: near: "0" is not a distance`},
		{"near is negative", "truth:\n  near: -1\n", `dataset.yaml:2: truth: near: "-1" is not a distance`},
		{"near is infinite", "truth:\n  near: .inf\n", `dataset.yaml:2: truth: near: ".inf" is not a distance`},
		{"an empty origin", "origins:\n  a: \"\"\n", `dataset.yaml:2: origins: a: empty`},
		{"no origin at all", "origins:\n", `dataset.yaml:1: origins: empty`},
	} {
		_, err := mapqueries.ParseDescription([]byte(c.data), "dataset.yaml")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.why, err, c.want)
		}
	}
	if d := mapqueries.Builtin(1); d.Near != scenes.MapNearDistance || d.Origins != nil {
		t.Errorf("the built-in dataset: near %v, origins %v; want %v and none", d.Near, d.Origins, scenes.MapNearDistance)
	}
}

// A dataset with a description reads back with it; one without reads
// back without (no file is written); origins must name the maps, all of
// them.
func TestDescriptionReadBack(t *testing.T) {
	d := mapqueries.Builtin(1)
	d.Maps, d.Near = d.Maps[:2], 0
	keep := map[string]bool{d.Maps[0].Name: true, d.Maps[1].Name: true}
	maps.DeleteFunc(d.Truth, func(k string, _ map[string][]string) bool { return !keep[k] })
	maps.DeleteFunc(d.Sources, func(k string, _ []byte) bool { return !keep[k] })
	write := func(d *mapqueries.Dataset) (string, *mapqueries.Dataset) {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "set")
		if err := d.Write(dir); err != nil {
			t.Fatal(err)
		}
		back, err := mapqueries.LoadDataset(dir)
		if err != nil {
			t.Fatal(err)
		}
		return dir, back
	}
	dir, back := write(d)
	if _, err := os.Stat(filepath.Join(dir, mapqueries.DescriptionFile)); err == nil {
		t.Error("a dataset that says nothing of near or origins got a description")
	}
	if back.Near != 0 || back.Origins != nil {
		t.Errorf("read back near %v, origins %v; want neither", back.Near, back.Origins)
	}
	d.Near = 0.75
	d.Origins = map[string]string{d.Maps[0].Name: "ScanNet", d.Maps[1].Name: "SceneNN"}
	dir, back = write(d)
	back.Name = d.Name // the folder's
	if !reflect.DeepEqual(back, d) {
		t.Errorf("read back near %v, origins %v; want %v, %v", back.Near, back.Origins, d.Near, d.Origins)
	}
	// Every map needs an origin once one has; an origin names a map.
	data := mapqueries.EncodeDescription(0, map[string]string{d.Maps[0].Name: "ScanNet"}, []string{d.Maps[0].Name})
	if err := os.WriteFile(filepath.Join(dir, mapqueries.DescriptionFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mapqueries.LoadDataset(dir); err == nil || !strings.Contains(err.Error(), "dataset.yaml: origins: map "+d.Maps[1].Name+" has none") {
		t.Errorf("an origin missing: %v", err)
	}
	data = append(data, "  house_99: SceneNN\n"...)
	if err := os.WriteFile(filepath.Join(dir, mapqueries.DescriptionFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mapqueries.LoadDataset(dir); err == nil || !strings.Contains(err.Error(), `origins: "house_99" is not a map of the dataset`) {
		t.Errorf("an origin of no map: %v", err)
	}
	d.Origins = map[string]string{d.Maps[0].Name: "ScanNet"}
	if err := d.Write(filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "has none") {
		t.Errorf("writing origins for one map of two: %v", err)
	}
}

// FuzzDescription: whatever ParseDescription accepts, EncodeDescription
// writes so that it reads back the same; what it refuses names the file.
func FuzzDescription(f *testing.F) {
	for _, s := range []string{
		"truth:\n  near: 1.5\norigins:\n  scene0011_00: ScanNet\n  \"025\": SceneNN\n", "", "truth:\n", "truth:\n  near: 1e-300\n",
		"origins: {a: b, c: d}\n", "truth:\n  near: \"0x1p-2\"\n", "origins:\n  \"a: b\": \"c\\u0085\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := mapqueries.ParseDescription(data, "dataset.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dataset.yaml:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		names := slices.Sorted(maps.Keys(d.Origins))
		enc := mapqueries.EncodeDescription(d.Near, d.Origins, names)
		back, err := mapqueries.ParseDescription(enc, "dataset.yaml")
		if err != nil {
			t.Fatalf("written description does not read back: %v\n%s", err, enc)
		}
		if back.Near != d.Near || !maps.Equal(back.Origins, d.Origins) || (back.Origins == nil) != (d.Origins == nil) {
			t.Fatalf("read back %+v\nwant %+v\nfile:\n%s", back, d, enc)
		}
	})
}
