package agents

import (
	"embed"
	"strings"
	"text/template"
)

// The prompts are the project's own templates, embedded in the binary.
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = template.Must(template.New("").ParseFS(promptFS, "prompts/*.tmpl"))

// render fills a prompt template; the templates are fixed and tested, so
// a failure here is a programming error reported as such.
func render(name string, data any) (string, error) {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	return b.String(), nil
}
