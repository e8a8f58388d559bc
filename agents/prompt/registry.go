package prompt

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"sync"
)

var (
	registryMu sync.Mutex
	registry   = map[string]*Set{}
)

// noData is the data of a template rendered with nil, or called by
// {{template "name"}} without a pipeline: it has no fields.
type noData struct{}

var noDataType = reflect.TypeFor[noData]()

// Register parses the templates of fsys that match pattern as the set
// name and registers it, so that "ambibench prompts export" writes it and
// "run --prompts" may replace its files. It panics if a file does not
// parse or the name is taken: the templates are embedded, so both are
// programming errors. Call it once, from a package variable.
//
// data gives, for each template the workflow renders by name (a file's
// name, or a name the files {{define}}), a zero value of the type of the
// data it is rendered with: nil for none. A replaced template is checked
// against these types before the run (see [Set.Check]); a test of the
// package should call [Set.Check] on the built-in set, which fails when a
// template has no type.
func Register(name string, fsys fs.FS, pattern string, data map[string]any) *Set {
	if name == "" || name != filepath.Base(name) || name[0] == '.' {
		panic(fmt.Sprintf("prompt: Register: %q is not a directory name", name))
	}
	s, err := readSet(name, fsys, pattern)
	if err != nil {
		panic(err)
	}
	s.data = typesOf(data)
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, taken := registry[name]; taken {
		panic(fmt.Sprintf("prompt: Register: %q registered twice", name))
	}
	registry[name] = s
	return s
}

// typesOf are the types of the zero values of data, by template.
func typesOf(data map[string]any) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for tmpl, zero := range data {
		if zero == nil {
			out[tmpl] = noDataType
			continue
		}
		out[tmpl] = reflect.TypeOf(zero)
	}
	return out
}

// Sets returns the registered sets, by name.
func Sets() []*Set {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]*Set, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// SetNames returns the registered sets' names, sorted.
func SetNames() []string {
	var names []string
	for _, s := range Sets() {
		names = append(names, s.name)
	}
	return names
}

// Lookup returns the registered set of that name.
func Lookup(name string) (*Set, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	s, ok := registry[name]
	return s, ok
}

// Entries are the templates the workflow renders by name, each with the
// Go type of its data, sorted by name.
func (s *Set) Entries() []Entry {
	var out []Entry
	for name, t := range s.data {
		if t == noDataType {
			t = nil
		}
		out = append(out, Entry{Name: name, Data: t})
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Entry is a template a workflow renders, and the type of its data (nil
// for none).
type Entry struct {
	Name string
	Data reflect.Type
}

// Export writes every file of every registered set to dir, as
// dir/SET/NAME: the form [Load] reads back. dir must be new or empty, so
// that no edited template is overwritten; it returns the number of files
// written.
func Export(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return 0, err
	case len(entries) > 0:
		return 0, fmt.Errorf("%s is not empty (it holds %s%s); give a new or empty directory, so that no template already there is overwritten",
			dir, entries[0].Name(), map[bool]string{true: ", …", false: ""}[len(entries) > 1])
	}
	n := 0
	for _, s := range Sets() {
		sub := filepath.Join(dir, s.name)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return n, err
		}
		for _, f := range s.files {
			if err := os.WriteFile(filepath.Join(sub, f.Name), []byte(f.Text), 0o644); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
