package cli

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// --version prints the suite version the records carry, the record
// schema, the module's version and the toolchain.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"--version", "-version", "version"} {
		out, _, err := runCLI(t, arg)
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		for _, want := range []string{fmt.Sprintf("ambibench suite version %d (record schema %d)\n", bench.SuiteVersion, results.SchemaVersion), "\nmodule github.com/ambibench/ambibench ", "\ngo1."} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", arg, want, out)
			}
		}
	}
	if _, _, err := runCLI(t, "--version", "x"); err == nil {
		t.Error("--version x: no error")
	}
}

func TestModuleVersion(t *testing.T) {
	t.Parallel()
	main := debug.Module{Path: modulePath, Version: "(devel)"}
	for _, tc := range []struct {
		why  string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "(unknown)"},
		{"a build of the source tree", &debug.BuildInfo{Main: main}, "(devel)"},
		{"a build that stamped its commit", &debug.BuildInfo{Main: main, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}},
			"(devel), commit abc123 with local changes"},
		{"go install …@v1.2.0", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.0"}}, "v1.2.0"},
		{"a dependency of another module", &debug.BuildInfo{Main: debug.Module{Path: "example.com/mine"}, Deps: []*debug.Module{{Path: modulePath, Version: "v1.3.0"}}}, "v1.3.0"},
		{"a replaced dependency", &debug.BuildInfo{Main: debug.Module{Path: "example.com/mine"}, Deps: []*debug.Module{{Path: modulePath, Version: "v1.3.0", Replace: &debug.Module{Path: "../ambibench"}}}}, "v1.3.0 => ../ambibench"},
		{"another module without this one", &debug.BuildInfo{Main: debug.Module{Path: "example.com/mine"}}, "(unknown)"},
	} {
		if got := moduleVersion(tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.why, got, tc.want)
		}
	}
}
