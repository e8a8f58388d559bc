// Package prompt loads and renders the workflows' prompt templates. The
// templates are the project's own text/template files; each track package
// embeds its own (prompts/*.tmpl) and parses them once with [Must].
package prompt

import (
	"io/fs"
	"strings"
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
func (s *Set) Render(name string, data any) (string, error) {
	var b strings.Builder
	if err := s.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	return b.String(), nil
}
