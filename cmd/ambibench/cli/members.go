package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
)

// splitModelSpecs reads --ensemble-models: model specs separated by
// commas. A sim spec's explicit rates are comma-separated too
// (sim:hallucinate=0.1,tag=0.3), so a piece that sets a rate — a "=" with
// no ":" before it, which no spec's first piece has — belongs to the spec
// before it. Blank pieces are dropped.
func splitModelSpecs(s string) []string {
	var out []string
	for _, piece := range strings.Split(s, ",") {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			continue
		}
		eq := strings.Index(piece, "=")
		if len(out) > 0 && eq >= 0 && !strings.Contains(piece[:eq], ":") {
			out[len(out)-1] += "," + piece
			continue
		}
		out = append(out, piece)
	}
	return out
}

// openMembers opens the --ensemble-models specs as --model is opened,
// with the same caps and transcript. A spec equal to --model's is the
// main model itself, and a spec given twice is opened once, so that rate
// caps and cassettes hold per model, not per mention. Errors name the
// spec and its position in the list.
func openMembers(specs []string, mainSpec string, main llm.Model, open func(string) (llm.Model, error)) ([]llm.Model, error) {
	opened := map[string]llm.Model{strings.TrimSpace(mainSpec): main}
	out := make([]llm.Model, 0, len(specs))
	for i, spec := range specs {
		m, ok := opened[spec]
		if !ok {
			var err error
			if m, err = open(spec); err != nil {
				return nil, fmt.Errorf("member %d of %d, %q: %w", i+1, len(specs), spec, err)
			}
			opened[spec] = m
		}
		out = append(out, m)
	}
	return out, nil
}

// membersPlayed reports whether any job's agent samples from members.
func membersPlayed(names []string) bool {
	for _, a := range names {
		if info, ok := agents.Lookup(a); ok && info.UsesMembers {
			return true
		}
	}
	return false
}

// agentsWithMembers lists the registered agents that take members, for
// the error when a run has none of them.
func agentsWithMembers() []string {
	var out []string
	for _, info := range agents.All() {
		if info.UsesMembers {
			out = append(out, info.Name)
		}
	}
	return out
}

// lockedWriter lets several models share one transcript file: each
// model's Transcript locks only itself, so the file needs a lock of its
// own for lines to stay whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// openModels opens --model and, if given, the --ensemble-models.
func openModels(mainSpec, memberSpecs string, getenv func(string) string, mopts models.Options) (llm.Model, []llm.Model, error) {
	if mopts.Transcript != nil {
		mopts.Transcript = &lockedWriter{w: mopts.Transcript}
	}
	m, err := models.OpenWith(mainSpec, getenv, mopts)
	if err != nil {
		return nil, nil, fmt.Errorf("--model: %w", err)
	}
	specs := splitModelSpecs(memberSpecs)
	if len(specs) == 0 {
		return m, nil, nil
	}
	members, err := openMembers(specs, mainSpec, m, func(spec string) (llm.Model, error) {
		return models.OpenWith(spec, getenv, mopts)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("--ensemble-models: %w", err)
	}
	return m, members, nil
}
