package models

import (
	"errors"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// openGemini reads the Gemini settings from the environment: the key from
// GEMINI_API_KEY or GOOGLE_API_KEY; Vertex AI when GOOGLE_GENAI_USE_VERTEXAI
// is true, with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION; and
// GOOGLE_GEMINI_BASE_URL for a proxy or a local server. opts holds what
// the spec set; mopts shape the calls.
func openGemini(model string, getenv func(string) string, opts gemini.Options, mopts Options) (llm.Model, error) {
	opts.APIKey = getenv("GEMINI_API_KEY")
	opts.BaseURL = getenv("GOOGLE_GEMINI_BASE_URL")
	if opts.APIKey == "" {
		opts.APIKey = getenv("GOOGLE_API_KEY")
	}
	switch strings.ToLower(getenv("GOOGLE_GENAI_USE_VERTEXAI")) {
	case "1", "true", "yes":
		opts.Backend = gemini.BackendVertex
		opts.Project = getenv("GOOGLE_CLOUD_PROJECT")
		opts.Location = getenv("GOOGLE_CLOUD_LOCATION")
		if opts.APIKey == "" && opts.BaseURL == "" && (opts.Project == "" || opts.Location == "") {
			return nil, errors.New("gemini: Vertex AI (GOOGLE_GENAI_USE_VERTEXAI) needs GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or an express-mode key in GEMINI_API_KEY or GOOGLE_API_KEY")
		}
	default:
		// The backend only knows that its key is empty; the variables
		// it could have come from are named here, where they are read.
		if opts.APIKey == "" && opts.BaseURL == "" {
			return nil, errors.New("gemini: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY (or GOOGLE_GEMINI_BASE_URL for a local server, or GOOGLE_GENAI_USE_VERTEXAI=true for Vertex AI)")
		}
	}
	m, err := gemini.New(model, opts)
	if err != nil {
		return nil, err
	}
	return live(m, mopts), nil
}
