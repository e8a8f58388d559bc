package household

import (
	"embed"

	"github.com/ambibench/ambibench/agents/prompt"
)

// The prompts are the project's own templates, embedded in the binary.
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = prompt.Must(promptFS, "prompts/*.tmpl")

// render fills a prompt template.
func render(name string, data any) (string, error) { return prompts.Render(name, data) }
