package bench

// The agents register themselves from the init functions of their
// packages; these imports register them all, so that every name a run or
// a test may give is known. The registry orders them by agents.Order,
// not by the order of these imports.
import (
	_ "github.com/ambibench/ambibench/agents/household"
	_ "github.com/ambibench/ambibench/agents/reference"
	_ "github.com/ambibench/ambibench/agents/semmap"
	_ "github.com/ambibench/ambibench/agents/tabletop"
)
