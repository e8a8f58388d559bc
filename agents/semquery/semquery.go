// Package semquery is the reference reading of a semantic-map query, for
// the rules agent and the simulated model: parse the English query into a
// structured request, then answer it over a map from the affordance table
// and the geometry, without the truth.
//
// The logic lives in package scenes (ParseObjectQuery, ResolveObjects,
// the affordance table) because the built-in dataset's ground truth
// (tasks/semmap) runs the very same code over the true map, and tasks may
// not import agents. Over the true classes Resolve gives the truth; over a
// detected map the detector's confusions make it miss exactly where a
// careful reader of the map would.
package semquery

import "github.com/ambibench/ambibench/scenes"

// Request is a parsed query: wanted classes or affordance, excluded
// classes or affordance, and a spatial relation to an anchor class.
type Request = scenes.ObjectQuery

// Options tune ResolveWith.
type Options = scenes.ResolveOptions

// Relations of a Request.
const (
	Near = scenes.MapRelNear
	On   = scenes.MapRelOn
	Far  = scenes.MapRelFar
)

// ParseQuery reads a query's text; false when it names nothing wanted.
func ParseQuery(text string) (Request, bool) { return scenes.ParseObjectQuery(text) }

// Resolve answers req over m from each object's most probable class: the
// ids of the objects that serve it, most relevant first (possibly none).
func Resolve(m *scenes.SemanticMap, req Request) []string { return scenes.ResolveObjects(m, req) }

// ResolveWith is Resolve with options (e.g. counting an object as any
// class it gives probability at least MinP, for the uncertainty input).
func ResolveWith(m *scenes.SemanticMap, req Request, opts Options) []string {
	return scenes.ResolveObjectsWith(m, req, opts)
}

// Answer parses text and resolves it over m; ok is false when the text
// could not be read, and then ids is empty.
func Answer(m *scenes.SemanticMap, text string) (ids []string, ok bool) {
	req, ok := ParseQuery(text)
	if !ok {
		return nil, false
	}
	return Resolve(m, req), true
}
