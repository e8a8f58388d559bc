package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// modulePath is this module's path, as the build information names it.
const modulePath = "github.com/ambibench/ambibench"

// versionCmd prints the suite version (the one records carry, raised when
// episodes or scoring change), the record schema, the module's version
// as the build knows it and the Go toolchain.
func versionCmd(stdout io.Writer) error {
	bi, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintf(stdout, "ambibench suite version %d (record schema %d)\nmodule %s %s\n%s\n",
		bench.SuiteVersion, results.SchemaVersion, modulePath, moduleVersion(bi), runtime.Version())
	return err
}

// moduleVersion is this module's version in bi: a release or
// pseudo-version when the binary was built from the module cache (go
// install …@version, or a module that depends on this one), "(devel)"
// from a source tree, with the commit when the build stamped one;
// "(unknown)" without build information.
func moduleVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "(unknown)"
	}
	v := ""
	if bi.Main.Path == modulePath {
		v = bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			v = d.Version
			if d.Replace != nil {
				v += " => " + strings.TrimSpace(d.Replace.Path+" "+d.Replace.Version)
			}
		}
	}
	if v == "" {
		return "(unknown)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if v == "(devel)" && rev != "" {
		v += ", commit " + rev
		if modified == "true" {
			v += " with local changes"
		}
	}
	return v
}
