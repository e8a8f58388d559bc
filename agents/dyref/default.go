package dyref

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
)

// The shipped routers, trained for the simulated model by ambibench
// train-router with its defaults: router.json over the paper's three
// tools ("train-router --out agents/dyref/router.json"), and
// router-ambiguity.json over all four, for the variant that adds this
// project's ambiguity tool ("train-router --ambiguity --out
// agents/dyref/router-ambiguity.json").
var (
	//go:embed router.json
	routerJSON []byte
	//go:embed router-ambiguity.json
	routerAmbiguityJSON []byte
)

var (
	defaultRouter          = sync.OnceValues(func() (*Router, error) { return shipped(routerJSON, "agents/dyref/router.json", PaperTools) })
	defaultAmbiguityRouter = sync.OnceValues(func() (*Router, error) {
		return shipped(routerAmbiguityJSON, "agents/dyref/router-ambiguity.json", len(AllTools))
	})
)

func shipped(data []byte, name string, tools int) (*Router, error) {
	r, err := ReadFactorRouter(bytes.NewReader(data), name)
	if err != nil {
		return nil, err
	}
	if r.Tools() != FirstTools(tools) {
		return nil, fmt.Errorf("%s: routes among %v, want %v", name, r.Tools(), FirstTools(tools))
	}
	return r, nil
}

// Default returns the shipped router over the paper's three tools. It is
// shared: Route and Scores only read it.
func Default() (*Router, error) { return defaultRouter() }

// DefaultAmbiguity returns the shipped router over all four tools, the
// ambiguity tool among them.
func DefaultAmbiguity() (*Router, error) { return defaultAmbiguityRouter() }
