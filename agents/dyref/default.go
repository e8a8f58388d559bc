package dyref

import (
	"bytes"
	_ "embed"
	"sync"
)

// routerJSON is the shipped router, trained for the simulated model by
// "ambibench train-router --out agents/dyref/router.json" with its
// defaults.
//
//go:embed router.json
var routerJSON []byte

var defaultRouter = sync.OnceValues(func() (*Router, error) {
	return ReadRouter(bytes.NewReader(routerJSON), "agents/dyref/router.json")
})

// Default returns the shipped router. It is shared: Route and Scores
// only read it.
func Default() (*Router, error) { return defaultRouter() }
