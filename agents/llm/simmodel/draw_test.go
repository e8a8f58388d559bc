package simmodel

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// TestDrawIsTheFormattedHash holds draw to the formatted strings it
// replaced, whose hashes fix every misreading and slip in the records.
func TestDrawIsTheFormattedHash(t *testing.T) {
	opening := sha256.Sum256([]byte("an opening"))
	for _, tc := range []struct {
		why   string
		parts []string
		temp  float64
		n     int
		want  string // the format of the call site draw replaced
	}{
		{"persists and uniform: one key, greedy", []string{"slip/move 2"}, 0, 3,
			fmt.Sprintf("%x\x00%s\x00%d", opening[:], "slip/move 2", 0)},
		{"the sample counts at temperature > 0", []string{"k"}, 0.8, 3,
			fmt.Sprintf("%x\x00%s\x00%d", opening[:], "k", 3)},
		{"a sample of two digits", []string{"k"}, 0.8, 12,
			fmt.Sprintf("%x\x00%s\x00%d", opening[:], "k", 12)},
		{"misread: three parts", []string{"coord", "red block 1", "x"}, 0, 0,
			fmt.Sprintf("%x\x00coord\x00%s\x00%s\x00%d", opening[:], "red block 1", "x", 0)},
		{"a key longer than the buffer", []string{strings.Repeat("a", 300)}, 0, 0,
			fmt.Sprintf("%x\x00%s\x00%d", opening[:], strings.Repeat("a", 300), 0)},
	} {
		c := &call{opening: opening[:], req: llm.Request{Temperature: tc.temp, Sample: tc.n}}
		if got, want := c.draw(tc.parts...), sha256.Sum256([]byte(tc.want)); got != want {
			t.Errorf("%s: draw(%q) = %x, want the hash of %q, %x", tc.why, tc.parts, got, tc.want, want)
		}
	}
}
