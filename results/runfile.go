package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RunFileName is the name of a run directory's description.
const RunFileName = "run.json"

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
// present. name (the file's path) prefixes errors.
func ParseRunFile(data []byte, name string) (RunFile, error) {
	var f RunFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return RunFile{}, fmt.Errorf("%s: %w", name, describeDecodeError(err))
	}
	if dec.More() {
		return RunFile{}, fmt.Errorf("%s: more than one JSON value", name)
	}
	if f.Settings == nil {
		return RunFile{}, fmt.Errorf("%s: field \"settings\": missing", name)
	}
	return f, nil
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
