// Package prompt loads and renders the workflows' prompt templates. The
// templates are the project's own text/template files; each track package
// embeds its own (prompts/*.tmpl) and registers them once, by name, with
// the Go type of the data each template is rendered with ([Register]):
// that is what lets "ambibench prompts export" write them all and
// "ambibench run --prompts DIR" replace any of them for one run
// ([Load], [WithOverrides], [Set.In]), each replacement checked before
// the run against the data its workflow gives ([Set.Check]).
package prompt

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"sync"
	"text/template"
	"text/template/parse"
)

// Set is a parsed set of prompt templates: the files of one workflow
// package, each a template named by its file name, and the templates they
// define.
type Set struct {
	name  string
	t     *template.Template
	files []File
	// data is the type of the data each template rendered by name is
	// given (registered by [Register]); noDataType for none.
	data map[string]reflect.Type
	// kept are the trees of the built-in set's {{define}}s that a
	// replaced file no longer defines, kept (see [Set.load]).
	kept map[*parse.Tree]bool
}

// File is one template file of a set.
type File struct {
	// Name is the file's name, which is also the template's: the name
	// the workflow renders it by, and the name of its copy that
	// "prompts export" writes.
	Name string
	// Text is the file's text.
	Text string
	// Path is where the text was read from, for errors: the built-in
	// file as "(built-in) SET/NAME", a replacement as the path given.
	Path string
}

// Must parses the templates of fsys that match pattern and panics if one
// does not parse: the templates are embedded, so that is a programming
// error. The set is not registered; see [Register] for one that the
// command can export and replace.
func Must(fsys fs.FS, pattern string) *Set {
	s, err := readSet("", fsys, pattern)
	if err != nil {
		panic(err)
	}
	return s
}

// readSet reads and parses the files of fsys that match pattern.
func readSet(name string, fsys fs.FS, pattern string) (*Set, error) {
	paths, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("prompt: pattern %q matches no files", pattern)
	}
	var files []File
	for _, p := range paths {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		base := path.Base(p)
		files = append(files, File{Name: base, Text: string(b), Path: builtinPath(name, base)})
	}
	return parseSet(name, files, nil)
}

// builtinPath is how an error names a built-in template file.
func builtinPath(set, file string) string {
	if set == "" {
		return file
	}
	return "(built-in) " + set + "/" + file
}

// parseSet parses files, in their names' order (as ParseFS does: a
// template defined twice is the last file's), into a set.
func parseSet(name string, files []File, data map[string]reflect.Type) (*Set, error) {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int { return cmp.Compare(a.Name, b.Name) })
	t := template.New("")
	for _, f := range files {
		if _, err := t.New(f.Name).Parse(f.Text); err != nil {
			return nil, parseError(f, err)
		}
	}
	return &Set{name: name, t: t, files: files, data: data}, nil
}

// Name is the name the set is registered by ("" for one made with Must).
func (s *Set) Name() string { return s.name }

// Files are the set's template files, by name.
func (s *Set) Files() []File { return slices.Clone(s.files) }

// Render fills the template name with data; the templates are fixed and
// tested, so a failure here is a programming error reported as such.
//
// The text is written into a pooled buffer and copied out once at its
// size: a strings.Builder grown by doubling allocated about twice the
// prompt's length on every call, for prompts rendered tens of thousands
// of times a run.
func (s *Set) Render(name string, data any) (string, error) {
	b := buffers.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= maxPooled {
			b.Reset()
			buffers.Put(b)
		}
	}()
	if err := s.t.ExecuteTemplate(b, name, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

// maxPooled is the largest buffer kept for reuse; a rare huge prompt's
// buffer is left to the collector.
const maxPooled = 1 << 20

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
