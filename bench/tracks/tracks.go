// Package tracks registers the built-in tracks: import it for its side
// effect, as the command does, to run any of them by name.
//
//	import _ "github.com/ambibench/ambibench/bench/tracks"
//
// The built-ins register here rather than in their own packages' init,
// because Go initializes independent packages in the order of their import
// paths, and the order of registration is the order of "ambibench list"
// and of bench.TrackNames. A track of a user's own registers itself.
package tracks

import (
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/bench/tabletop"
)

func init() {
	bench.RegisterTrack(func() bench.Track { return tabletop.New() })
	bench.RegisterTrack(func() bench.Track { return household.New() })
	bench.RegisterTrack(func() bench.Track { return semmap.New() })
}
