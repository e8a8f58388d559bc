package bench

import (
	"strings"
)

// SubBenchmarkName names a cell's sub-benchmark: agent=<a>/task=<t>/perturb=<p>,
// the same key order on every track, each value as SanitizeName leaves it:
// the CLI's own agent, task and perturbation names, so that
// -bench 'Tabletop/agent=inner-monologue/' selects what --agents
// inner-monologue runs.
func SubBenchmarkName(agent string, c Cell) string {
	return "agent=" + SanitizeName(agent) + "/task=" + SanitizeName(c.Family) + "/perturb=" + SanitizeName(c.Perturbation)
}

// SanitizeName makes s one value of a sub-benchmark name, unchanged for
// every name the CLI uses. The rule:
//
//   - letters, digits, '-', '_', '.' and ':' are kept;
//   - any other rune (a space, a slash, '=', ...) becomes '_', so a value
//     neither splits the name into levels nor breaks a key=value part;
//   - a value that would end in '-' and digits ("noise-12") gets a '_'
//     appended ("noise-12_"), since benchstat and the testing package read
//     a name's trailing -digits as its GOMAXPROCS. Every value is treated
//     so, wherever it stands in the name, so that a name reads the same
//     whichever key comes last.
func SanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == ':':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if endsInProcs(out) {
		out += "_"
	}
	return out
}

// endsInProcs reports whether s ends in '-' and one or more digits, which
// benchfmt and the testing package take for a -GOMAXPROCS suffix.
func endsInProcs(s string) bool {
	t := strings.TrimRight(s, "0123456789")
	return len(t) < len(s) && strings.HasSuffix(t, "-")
}
