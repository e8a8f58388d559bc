// Package prompt loads and renders the workflows' prompt templates. The
// templates are the project's own text/template files; each track package
// embeds its own (prompts/*.tmpl) and parses them once with [Must].
package prompt

import (
	"bytes"
	"io/fs"
	"sync"
	"text/template"
)

// Set is a parsed set of prompt templates.
type Set struct{ t *template.Template }

// Must parses the templates of fsys that match pattern and panics if one
// does not parse: the templates are embedded, so that is a programming
// error.
func Must(fsys fs.FS, pattern string) *Set {
	return &Set{template.Must(template.New("").ParseFS(fsys, pattern))}
}

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
