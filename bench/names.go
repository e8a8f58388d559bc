package bench

import (
	"strings"
)

// SubBenchmarkName names a cell's sub-benchmark: agent=<a>/task=<t>/perturb=<p>,
// the same key order on every track. Every rune outside [A-Za-z0-9_.:]
// becomes '_', so a value holds no space or slash, and no name can end in
// -digits, which benchstat would take for GOMAXPROCS.
func SubBenchmarkName(agent string, c Cell) string {
	return "agent=" + SanitizeName(agent) + "/task=" + SanitizeName(c.Family) + "/perturb=" + SanitizeName(c.Perturbation)
}

// SanitizeName makes s a part of a sub-benchmark name (see SubBenchmarkName).
func SanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == ':':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
