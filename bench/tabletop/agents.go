package tabletop

// The track's agents register themselves from the init functions of
// their packages: these imports register them, so that every name a run
// of the track may give is known. The registry orders them by
// agents.Order, not by the order of the imports.
import (
	_ "github.com/ambibench/ambibench/agents/reference"
	_ "github.com/ambibench/ambibench/agents/tabletop"
)
