package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/scenes/camera"
)

const renderUsage = `Usage: ambibench render --out DIR [flags]

Writes the tabletop as each robot's camera sees it at the start of the
episodes of a grid, without running an agent, so that the scenes a cell
holds can be looked at. The grid is chosen as ambibench run chooses it
(--tasks, --perturbations, --episodes, --seed, --scene-sizes); every
episode gives robot 1's image, and on a two-robot table robot 2's too,
each showing only what that robot observes under partial observability.

DIR, which must be empty or new, receives:
  FAMILY/PERTURBATION/eINDEX[-nSIZE]-ROBOT.png   the images
  images.jsonl   one line an image, in grid order: the episode, the robot,
                 the file, the image's digest, and each object's box in
                 pixels and visible fraction
  render.json    the suite version, the seed, the grid and the camera

An image's digest names it by what determines it (the suite version, the
seed, the episode, the camera and the renderer's version), so it is the
same on every machine; the PNG bytes are the same on one machine at any
--concurrency.

Flags:
`

// renderSettings is render.json: what fixed the images.
type renderSettings struct {
	Suite    int            `json:"suite"`
	Renderer string         `json:"renderer"`
	Seed     uint64         `json:"seed"`
	Grid     renderGrid     `json:"grid"`
	Camera   camera.Options `json:"camera"`
}

type renderGrid struct {
	Tasks         []string `json:"tasks"`
	Perturbations []string `json:"perturbations"`
	Episodes      int      `json:"episodes"`
	SceneSizes    []int    `json:"scene_sizes,omitempty"`
}

// renderedImage is one line of images.jsonl.
type renderedImage struct {
	Episode      string           `json:"episode"`
	Family       string           `json:"family"`
	Perturbation string           `json:"perturbation"`
	Index        int              `json:"index"`
	SceneSize    int              `json:"scene_size,omitempty"`
	Robot        string           `json:"robot"`
	File         string           `json:"file"`
	Digest       string           `json:"digest"`
	Objects      []renderedObject `json:"objects"`
}

type renderedObject struct {
	ID       string  `json:"id"`
	Hidden   bool    `json:"hidden,omitempty"`
	Box      *[4]int `json:"box,omitempty"` // x0, y0, x1, y1 in pixels, x1 and y1 exclusive
	Fraction float64 `json:"fraction"`
}

// renderCmd writes the opening images of a grid's episodes.
func renderCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the `dir` to write the images to (required; empty or new)")
	track := fs.String("track", tabletop.Name, "the track: only tabletop has a table to look at")
	taskList := fs.String("tasks", "", "comma-separated task `families` (default all)")
	perturbList := fs.String("perturbations", "", "comma-separated `perturbations` (default all)")
	episodes := fs.Int("episodes", bench.DefaultEpisodes(tabletop.New()), "episodes per cell")
	seed := fs.Uint64("seed", 1, "suite `seed`, as ambibench run takes it")
	sizes := fs.String("scene-sizes", "", fmt.Sprintf("comma-separated table `sizes`, in objects with distractors added (0: the family's own size; at most %d; default: own size only)", tabletop.MaxSceneSize))
	conc := fs.Int("concurrency", runtime.GOMAXPROCS(0), "episodes rendered at once; the files do not depend on it")
	view := fs.String("view", string(camera.Perspective), "`view`: perspective (the KnowNo tabletop's camera) or top-down")
	width := fs.Int("width", camera.DefaultWidth, "image width in `pixels`")
	height := fs.Int("height", camera.DefaultHeight, "image height in `pixels`")
	fov := fs.Float64("fov", camera.DefaultFovY, "perspective view: vertical field of view in `degrees`")
	ortho := fs.Float64("ortho-height", camera.DefaultOrthoHeight, "top-down view: the table's extent from the image's top to its bottom, in `metres`")
	eye := fs.String("eye", "", "the camera's position `x,y,z` in metres on the table's frame (default: the view's own)")
	target := fs.String("target", "", "the point `x,y,z` the camera looks at (default: the table's middle, 0,-0.5,0)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), renderUsage)
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args) }); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("render: unexpected arguments %q (the directory goes to --out)", fs.Args())
	}
	if *track != tabletop.Name {
		return fmt.Errorf("render: --track %q: only the tabletop track has a camera (the household is text, semmap a map)", *track)
	}
	if *out == "" {
		return fmt.Errorf("render: --out DIR is required")
	}
	if *episodes < 1 {
		return fmt.Errorf("render: --episodes %d: must be at least 1", *episodes)
	}
	if *conc < 1 {
		return fmt.Errorf("render: --concurrency %d: must be at least 1", *conc)
	}
	sz, err := tabletop.ParseSceneSizes(*sizes)
	if err != nil {
		return fmt.Errorf("render: --scene-sizes %q: %w", *sizes, err)
	}
	opt := camera.Options{Width: *width, Height: *height, View: camera.View(*view), FovY: *fov, OrthoHeight: *ortho}
	for _, p := range []struct {
		name string
		val  string
		dst  *[3]float64
	}{{"eye", *eye, &opt.Eye}, {"target", *target, &opt.Target}} {
		if p.val == "" {
			continue
		}
		if *p.dst, err = parsePoint(p.val); err != nil {
			return fmt.Errorf("render: --%s %q: %w", p.name, p.val, err)
		}
	}
	if *width < 1 || *height < 1 {
		return fmt.Errorf("render: image size %d×%d: both sides must be at least 1 pixel", *width, *height)
	}
	if err := opt.Validate(); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	opt = opt.Resolved()
	cells, err := tabletop.Cells(splitList(*taskList), splitList(*perturbList), sz...)
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if err := tabletop.CheckSceneSizes(*seed, cells); err != nil {
		return fmt.Errorf("render: --scene-sizes: %w", err)
	}
	if err := emptyDir(*out); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	type job struct {
		cell  bench.Cell
		index int
	}
	var jobs []job
	for _, c := range cells {
		for i := range *episodes {
			jobs = append(jobs, job{c, i})
		}
	}
	lines := make([][]renderedImage, len(jobs))
	next := make(chan int)
	g, ctx := errgroup.WithContext(context.Background())
	g.Go(func() error {
		defer close(next)
		for i := range jobs {
			select {
			case next <- i:
			case <-ctx.Done():
				return nil
			}
		}
		return nil
	})
	for range min(*conc, len(jobs)) {
		g.Go(func() error {
			var r camera.Renderer
			for i := range next {
				imgs, err := renderEpisode(&r, *out, *seed, jobs[i].cell, jobs[i].index, opt)
				if err != nil {
					return fmt.Errorf("render: %w", err)
				}
				lines[i] = imgs
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	var index bytes.Buffer
	enc := json.NewEncoder(&index)
	n := 0
	for _, ls := range lines {
		for _, l := range ls {
			if err := enc.Encode(l); err != nil {
				return fmt.Errorf("render: %w", err)
			}
			n++
		}
	}
	if err := os.WriteFile(filepath.Join(*out, "images.jsonl"), index.Bytes(), 0o644); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	// Whose view, how many robots and what is covered are each episode's.
	shared := opt
	shared.TwoRobots, shared.Robot, shared.Partial = false, "", false
	settings := renderSettings{
		Suite: bench.SuiteVersion, Renderer: camera.Version, Seed: *seed, Camera: shared,
		Grid: renderGrid{Tasks: cellFamilies(cells), Perturbations: cellPerturbations(cells), Episodes: *episodes, SceneSizes: sz},
	}
	js, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if err := os.WriteFile(filepath.Join(*out, "render.json"), append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "Wrote %d images of %d episodes (%d cells) to %s; images.jsonl lists them.\n", n, len(jobs), len(cells), *out)
	return err
}

// renderEpisode writes the opening images of one episode under dir and
// returns their lines of images.jsonl.
func renderEpisode(r *camera.Renderer, dir string, seed uint64, c bench.Cell, index int, opt camera.Options) ([]renderedImage, error) {
	views, err := tabletop.Views(r, seed, c.Family, c.Perturbation, index, c.Size, opt)
	if err != nil {
		return nil, err
	}
	sub := filepath.Join(c.Family, c.Perturbation)
	if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
		return nil, err
	}
	episode := fmt.Sprintf("%s/%s/%s/%d/%d", tabletop.Name, c.Family, c.Perturbation, seed, index)
	name := fmt.Sprintf("e%d", index)
	if c.Size != 0 {
		episode += fmt.Sprintf("/n=%d", c.Size)
		name += fmt.Sprintf("-n%d", c.Size)
	}
	out := make([]renderedImage, 0, len(views))
	for _, v := range views {
		file := filepath.ToSlash(filepath.Join(sub, name+"-"+v.Robot+".png"))
		if err := os.WriteFile(filepath.Join(dir, file), v.PNG, 0o644); err != nil {
			return nil, err
		}
		out = append(out, renderedImage{
			Episode: episode, Family: c.Family, Perturbation: c.Perturbation, Index: index, SceneSize: c.Size,
			Robot: v.Robot, File: file, Digest: v.Digest, Objects: renderedObjects(v.Visible),
		})
	}
	return out, nil
}

func renderedObjects(vs []camera.Visible) []renderedObject {
	out := make([]renderedObject, len(vs))
	for i, v := range vs {
		out[i] = renderedObject{ID: v.ID, Hidden: v.Hidden, Fraction: v.Fraction}
		if !v.Hidden && !v.Box.Empty() {
			out[i].Box = &[4]int{v.Box.Min.X, v.Box.Min.Y, v.Box.Max.X, v.Box.Max.Y}
		}
	}
	return out
}

// parsePoint reads "x,y,z".
func parsePoint(s string) ([3]float64, error) {
	var p [3]float64
	fields := strings.Split(s, ",")
	if len(fields) != 3 {
		return p, fmt.Errorf("want three numbers x,y,z, got %d", len(fields))
	}
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return p, fmt.Errorf("coordinate %d, %q, is not a number", i+1, strings.TrimSpace(f))
		}
		p[i] = v
	}
	return p, nil
}

// emptyDir makes dir, or checks that it is an empty directory, so that a
// render never mixes its images with files already there.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("--out %s holds %d entries already (%s, …): give an empty or new directory", dir, len(entries), entries[0].Name())
	}
	return nil
}

func cellFamilies(cells []bench.Cell) []string {
	var out []string
	for _, c := range cells {
		if len(out) == 0 || out[len(out)-1] != c.Family {
			out = append(out, c.Family)
		}
	}
	return out
}

func cellPerturbations(cells []bench.Cell) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cells {
		if !seen[c.Perturbation] {
			seen[c.Perturbation] = true
			out = append(out, c.Perturbation)
		}
	}
	return out
}
