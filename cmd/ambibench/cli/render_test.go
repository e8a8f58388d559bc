package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readTree reads every file under dir, by its slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestRenderSameBytesAtAnyConcurrency renders the same grid, two-robot
// cells and a larger table among it, at --concurrency 1 and 4, and wants
// the same files with the same bytes.
func TestRenderSameBytesAtAnyConcurrency(t *testing.T) {
	t.Parallel()
	args := []string{"render", "--tasks", "pick_place,handover", "--perturbations", "none,multiplicity,partial_observability",
		"--episodes", "3", "--scene-sizes", "0,24", "--seed", "5"}
	dirs := []string{filepath.Join(t.TempDir(), "c1"), filepath.Join(t.TempDir(), "c4")}
	for i, conc := range []string{"1", "4"} {
		out, _, err := runCLI(t, append(args, "--out", dirs[i], "--concurrency", conc)...)
		if err != nil {
			t.Fatalf("--concurrency %s: %v", conc, err)
		}
		if !strings.Contains(out, "Wrote ") {
			t.Errorf("--concurrency %s: stdout %q says nothing written", conc, out)
		}
	}
	a, b := readTree(t, dirs[0]), readTree(t, dirs[1])
	if len(a) != len(b) {
		t.Fatalf("--concurrency 1 wrote %d files, 4 wrote %d", len(a), len(b))
	}
	for name, want := range a {
		if !bytes.Equal(b[name], want) {
			t.Errorf("%s differs between --concurrency 1 and 4", name)
		}
	}
	// What the index says: every file it names is a PNG of the asked
	// size, each digest is distinct, and a partially observed two-robot
	// table has each robot's view, hiding the other's objects.
	f, err := os.Open(filepath.Join(dirs[0], "images.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	digests := map[string]string{}
	robots := map[string]int{}
	hiddenOnPartial := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var img renderedImage
		if err := json.Unmarshal(sc.Bytes(), &img); err != nil {
			t.Fatal(err)
		}
		if prev, ok := digests[img.Digest]; ok {
			t.Errorf("%s and %s share the digest %s", prev, img.File, img.Digest)
		}
		digests[img.Digest] = img.File
		robots[img.Robot]++
		cfg, err := png.DecodeConfig(bytes.NewReader(a[img.File]))
		if err != nil {
			t.Fatalf("%s: %v", img.File, err)
		}
		if cfg.Width != 640 || cfg.Height != 480 {
			t.Errorf("%s is %d×%d, want the default 640×480", img.File, cfg.Width, cfg.Height)
		}
		for _, o := range img.Objects {
			if o.Hidden {
				if img.Perturbation != "partial_observability" {
					t.Errorf("%s: %s hidden on a fully observed table", img.File, o.ID)
				}
				hiddenOnPartial++
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// 2 families × 3 perturbations × 2 sizes × 3 episodes; handover's
	// cells and partial observability's have two robots.
	if want := map[string]int{"robot1": 36, "robot2": 24}; robots["robot1"] != want["robot1"] || robots["robot2"] != want["robot2"] {
		t.Errorf("images per robot %v, want %v", robots, want)
	}
	if hiddenOnPartial == 0 {
		t.Error("no object hidden from a robot under partial observability")
	}
}

func TestRenderRefusesBadInput(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		why  string
		args []string
		want string
	}{
		{"the images need a place", []string{}, "--out DIR is required"},
		{"files already there are never mixed with images", []string{"--out", full}, "holds 1 entries already"},
		{"only the tabletop has a table", []string{"--track", "household"}, "only the tabletop track"},
		{"a point has three coordinates", []string{"--eye", "0,1"}, "want three numbers"},
		{"a coordinate is a number", []string{"--target", "0,x,0"}, `coordinate 2, "x"`},
		{"a view is one of two", []string{"--view", "side"}, `unknown view "side"`},
		{"an image has pixels", []string{"--height", "0"}, "image size 640×0"},
		{"a field of view is an angle below 180°", []string{"--fov", "200"}, "field of view 200"},
		{"episodes are counted from one", []string{"--episodes", "0"}, "--episodes 0"},
		{"a family is one the registry holds", []string{"--tasks", "juggle"}, "juggle"},
		{"a size is within the table's range", []string{"--scene-sizes", "999"}, "--scene-sizes"},
		{"--scene-sizes 1 wrote images named 1 of tables holding 7 (run refused it; render did not)", []string{"--scene-sizes", "1"},
			"render: --scene-sizes: a table of 1 object cannot be built: pick_place/multiplicity holds 7 objects"},
		{"the directory is a flag", []string{"somewhere"}, "unexpected arguments"},
	} {
		args := append([]string{"render"}, tc.args...)
		if !strings.Contains(strings.Join(tc.args, " "), "--out") && tc.why != "the images need a place" {
			args = append(args, "--out", filepath.Join(t.TempDir(), "new"))
		}
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: render %q: error %v, want one containing %q", tc.why, tc.args, err, tc.want)
		}
	}
}

// TestShowImagesAreRendersImages plays a two-robot cell, asks show for an
// episode's images and wants render's bytes for the same episode; on a
// track without a camera it wants a refusal that says so.
func TestShowImagesAreRendersImages(t *testing.T) {
	t.Parallel()
	run, rendered, shown := t.TempDir(), filepath.Join(t.TempDir(), "r"), filepath.Join(t.TempDir(), "s")
	grid := []string{"--tasks", "handover", "--perturbations", "partial_observability", "--episodes", "2", "--seed", "3"}
	if _, _, err := runCLI(t, append([]string{"run", "--agents", "rules", "--quiet", "--out", run}, grid...)...); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, append([]string{"render", "--out", rendered}, grid...)...); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "show", "--images", shown, run, "tabletop/handover/partial_observability/rules//3/1")
	if err != nil {
		t.Fatal(err)
	}
	for _, robot := range []string{"robot1", "robot2"} {
		got, err := os.ReadFile(filepath.Join(shown, "handover-partial_observability-e1-"+robot+".png"))
		if err != nil {
			t.Fatalf("%v\nshow said:\n%s", err, out)
		}
		want, err := os.ReadFile(filepath.Join(rendered, "handover", "partial_observability", "e1-"+robot+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("show's %s image differs from render's", robot)
		}
		if !strings.Contains(out, robot+"'s camera at the start") {
			t.Errorf("show does not say where %s's image went:\n%s", robot, out)
		}
	}

	house := t.TempDir()
	if _, _, err := runCLI(t, "run", "--track", "household", "--agents", "oracle", "--episodes", "1", "--quiet", "--out", house); err != nil {
		t.Fatal(err)
	}
	keys, _, err := runCLI(t, "show", house)
	if err != nil {
		t.Fatal(err)
	}
	key, _, _ := strings.Cut(keys, "\t")
	_, _, err = runCLI(t, "show", "--images", t.TempDir(), house, key)
	if err == nil || !strings.Contains(err.Error(), "has no camera") {
		t.Errorf("show --images on a household episode: %v, want a refusal naming the missing camera", err)
	}
}
