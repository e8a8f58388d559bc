package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// RunFileName is the name of a run directory's description.
const RunFileName = "run.json"

// PromptSettingPrefix starts the settings of the prompt templates a run
// read in place of the built-in ones (run --prompts; agents/prompt's
// SettingPrefix): they change what an agent reads, not which episodes it
// plays, so two runs that differ in them are still compared
// (results/compare's Settings).
const PromptSettingPrefix = "prompt:"

// SuiteSetting is the setting of the suite version.
const SuiteSetting = "suite"

// RunFile describes a run directory: the settings every record in it was
// made with, which must not change (docs/contracts.md, "A directory is one
// run"), and the grid run so far, which may grow. It is written as run.json
// beside records.jsonl.
type RunFile struct {
	// Settings are the run's outcome-changing settings, each a name and
	// its value as text: the seed, the step limit, the suite version, the
	// record schema, a hash of the dataset, …. Two runs may share a
	// directory only when all their settings are equal.
	Settings map[string]string `json:"settings"`
	// Grid is what was asked for so far; each run adds its own. A
	// shard's grid is the whole run's, not its part.
	Grid Grid `json:"grid"`
	// Shard is set in the directory of one shard of a run (--shard);
	// "ambibench merge" joins the shards into a directory without it.
	Shard *RunShard `json:"shard,omitempty"`
}

// Grid is the part of a run that may grow between runs of one directory:
// more agents, models, task families, perturbations, scene sizes,
// episodes or repeats. Its lists are sorted and hold each value once.
type Grid struct {
	Agents        []string `json:"agents"`
	Models        []string `json:"models,omitempty"`
	Families      []string `json:"families,omitempty"`
	Perturbations []string `json:"perturbations,omitempty"`
	SceneSizes    []int    `json:"scene_sizes,omitempty"`
	Episodes      int      `json:"episodes"` // the most asked for per cell and agent
	// Repeats is the most plays of each episode asked for (--repeats);
	// 0: once.
	Repeats int `json:"repeats,omitempty"`
}

// Union is the grid that covers both g and h.
func (g Grid) Union(h Grid) Grid {
	union := func(a, b []string) []string {
		out := slices.Concat(a, b)
		slices.Sort(out)
		return slices.Compact(out)
	}
	sizes := slices.Concat(g.SceneSizes, h.SceneSizes)
	slices.Sort(sizes)
	return Grid{
		Agents:        union(g.Agents, h.Agents),
		Models:        union(g.Models, h.Models),
		Families:      union(g.Families, h.Families),
		Perturbations: union(g.Perturbations, h.Perturbations),
		SceneSizes:    slices.Compact(sizes),
		Episodes:      max(g.Episodes, h.Episodes),
		Repeats:       max(g.Repeats, h.Repeats),
	}
}

// SettingChange is a setting whose value differs between a directory's
// run.json and the run asked for now.
type SettingChange struct {
	Name, Old, New string
}

func (c SettingChange) String() string {
	show := func(v string) string {
		if v == "" {
			return "(unset)"
		}
		return v
	}
	return fmt.Sprintf("%s: %s in the directory, %s now", c.Name, show(c.Old), show(c.New))
}

// Changes lists the settings in which now differs from f, by name.
func (f RunFile) Changes(now map[string]string) []SettingChange {
	var out []SettingChange
	names := slices.Sorted(maps.Keys(f.Settings))
	for n := range maps.Keys(now) {
		if _, ok := f.Settings[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		if f.Settings[n] != now[n] {
			out = append(out, SettingChange{Name: n, Old: f.Settings[n], New: now[n]})
		}
	}
	return out
}

// SettingsError is the refusal of a run whose settings differ from those
// of the directory it would add to.
type SettingsError struct {
	Dir     string
	Changes []SettingChange
}

func (e *SettingsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s holds a run with other settings, so its records would not be comparable with this run's:", filepath.Join(e.Dir, RunFileName))
	for _, c := range e.Changes {
		b.WriteString("\n  " + c.String())
	}
	b.WriteString("\nrun with the directory's settings, use a new --out, or pass --fresh to discard the old run")
	return b.String()
}

// ReadRunFile reads dir/run.json. A directory without one gives
// ok == false and no error.
func ReadRunFile(dir string) (f RunFile, ok bool, err error) {
	path := filepath.Join(dir, RunFileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return RunFile{}, false, nil
	}
	if err != nil {
		return RunFile{}, false, err
	}
	f, err = ParseRunFile(data, path)
	return f, err == nil, err
}

// ParseRunFile decodes a run.json strictly: no unknown fields, settings
// and grid present, and every count in range (see [RunFile.Check]). name
// (the file's path) prefixes errors, with the line of a JSON error
// ("out/run.json:3: …") and the field of a value out of range
// ("out/run.json: field "grid.episodes": -5 is negative").
func ParseRunFile(data []byte, name string) (RunFile, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return RunFile{}, fmt.Errorf("%s: empty file (want the JSON object ambibench run writes, with \"settings\" and \"grid\")", name)
	}
	// Grid is a pointer here, so that a grid missing or null is told
	// from an empty one.
	var f struct {
		Settings map[string]string `json:"settings"`
		Grid     *Grid             `json:"grid"`
		Shard    *RunShard         `json:"shard,omitempty"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		if line := jsonErrorLine(data, err); line > 0 {
			return RunFile{}, fmt.Errorf("%s:%d: %w", name, line, describeRunFileError(err))
		}
		return RunFile{}, fmt.Errorf("%s: %w", name, describeRunFileError(err))
	}
	if dec.More() {
		return RunFile{}, fmt.Errorf("%s: more than one JSON value", name)
	}
	switch {
	case f.Settings == nil:
		return RunFile{}, fmt.Errorf("%s: field \"settings\": missing or null", name)
	case f.Grid == nil:
		return RunFile{}, fmt.Errorf("%s: field \"grid\": missing or null", name)
	}
	rf := RunFile{Settings: f.Settings, Grid: *f.Grid, Shard: f.Shard}
	if err := rf.Check(); err != nil {
		return RunFile{}, fmt.Errorf("%s: %w", name, err)
	}
	return rf, nil
}

// describeRunFileError is describeDecodeError for run.json, whose top
// level is not a record, and whose end may come too soon.
func describeRunFileError(err error) error {
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends too soon (a file cut short?)")
	case errors.As(err, &te) && te.Field == "":
		return fmt.Errorf("expected a JSON object with \"settings\" and \"grid\", got %s", te.Value)
	}
	return describeDecodeError(err)
}

// jsonErrorLine is the line (from 1) at which err, an error of decoding
// data, was found, or 0 when err says no offset.
func jsonErrorLine(data []byte, err error) int {
	var off int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		// The end came too soon: the error is on the last line written.
		return bytes.Count(bytes.TrimRight(data, " \t\r\n"), []byte("\n")) + 1
	default:
		return 0
	}
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// Check refuses a run file whose counts are out of range: a negative
// episode or repeat count in the grid, a scene size below 1, an empty
// name in its lists, or a shard that is not one of 1 to n of at least
// one. The error names the field by its JSON path.
func (f RunFile) Check() error {
	g := f.Grid
	switch {
	case g.Episodes < 0:
		return fieldErr("grid.episodes", "%d is negative", g.Episodes)
	case g.Repeats < 0:
		return fieldErr("grid.repeats", "%d is negative", g.Repeats)
	}
	for _, l := range [...]struct {
		name  string
		names []string
	}{{"grid.agents", g.Agents}, {"grid.models", g.Models}, {"grid.families", g.Families}, {"grid.perturbations", g.Perturbations}} {
		if i := slices.Index(l.names, ""); i >= 0 {
			return fieldErr(fmt.Sprintf("%s[%d]", l.name, i), "empty")
		}
	}
	for i, n := range g.SceneSizes {
		if n < 1 {
			return fieldErr(fmt.Sprintf("grid.scene_sizes[%d]", i), "%d: want a number of objects from 1", n)
		}
	}
	sh := f.Shard
	if sh == nil {
		return nil
	}
	switch {
	case sh.Count < 1:
		return fieldErr("shard.count", "%d: want the number of shards, at least 1", sh.Count)
	case sh.Index < 1 || sh.Index > sh.Count:
		return fieldErr("shard.index", "%d: want a shard from 1 to shard.count (%d)", sh.Index, sh.Count)
	case sh.Order.Repeats < 0:
		return fieldErr("shard.order.repeats", "%d is negative", sh.Order.Repeats)
	}
	for i, c := range sh.Order.Cells {
		if c.Episodes < 0 {
			return fieldErr(fmt.Sprintf("shard.order.cells[%d].episodes", i), "%d is negative", c.Episodes)
		}
		if c.SceneSize < 0 {
			return fieldErr(fmt.Sprintf("shard.order.cells[%d].scene_size", i), "%d is negative", c.SceneSize)
		}
	}
	return nil
}

// CheckRecord refuses a record that does not belong to the run f
// describes: one whose track, seed, suite or schema differs from f's
// settings (each where f has it), or whose agent, task family,
// perturbation, scene size, episode or repeat is outside f's grid (a list
// of the grid is checked when it is not empty). The error names the
// record's field and what run.json holds, so that a record edited, or
// copied from another run, is named rather than counted, or left out of
// every table, in silence. Models are not checked: a record may name
// its model otherwise than the spec (an ensemble's members, a router).
func (f RunFile) CheckRecord(r Record) error {
	for _, s := range [...]struct {
		field, value string
		quote        bool
	}{
		{"track", r.Track, true},
		{"seed", strconv.FormatUint(r.Seed, 10), false},
		{"suite", strconv.Itoa(r.Suite), false},
		{"schema", strconv.Itoa(r.Schema), false},
	} {
		want, ok := f.Settings[s.field]
		if !ok || want == s.value {
			continue
		}
		if s.quote {
			return fieldErr(s.field, "%q, but the run's %s says %s %q", s.value, RunFileName, s.field, want)
		}
		return fieldErr(s.field, "%s, but the run's %s says %s %s", s.value, RunFileName, s.field, want)
	}
	g := f.Grid
	for _, l := range [...]struct {
		field, value, grid string
		names              []string
	}{
		{"agent", r.Agent, "agents", g.Agents},
		{"family", r.Family, "families", g.Families},
		{"perturbation", r.Perturbation, "perturbations", g.Perturbations},
	} {
		if len(l.names) > 0 && !slices.Contains(l.names, l.value) {
			return fieldErr(l.field, "%q is not among the grid's %s in the run's %s (%s)", l.value, l.grid, RunFileName, strings.Join(l.names, ", "))
		}
	}
	if r.SceneSize != 0 && !slices.Contains(g.SceneSizes, r.SceneSize) {
		return fieldErr("scene_size", "%d is not among the grid's scene sizes in the run's %s (%s)", r.SceneSize, RunFileName, joinInts(g.SceneSizes))
	}
	if r.Episode >= g.Episodes && g.Episodes == 0 {
		return fieldErr("episode", "%d, but the grid of the run's %s has no episodes", r.Episode, RunFileName)
	}
	if r.Episode >= g.Episodes {
		return fieldErr("episode", "%d, but the run's %s has %d episodes per cell (0 to %d)", r.Episode, RunFileName, g.Episodes, g.Episodes-1)
	}
	if n := max(g.Repeats, 1); r.Repeat >= n {
		return fieldErr("repeat", "%d, but the run's %s plays each episode %d %s", r.Repeat, RunFileName, n, plural(n, "time", "times"))
	}
	return nil
}

func joinInts(ns []int) string {
	if len(ns) == 0 {
		return "none"
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// WriteRunFile writes dir/run.json whole: to a temporary file first, then
// renamed over the old one, so that a killed run leaves the old or the new
// file and never half of one.
func WriteRunFile(dir string, f RunFile) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, RunFileName)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
