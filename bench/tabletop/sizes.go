package tabletop

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseSceneSizes reads --scene-sizes: comma-separated object counts, 0
// for the family's own size, each at most MaxSceneSize and none
// twice. Empty means the family's own size only (nil).
func ParseSceneSizes(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		switch {
		case f == "":
			return nil, fmt.Errorf("size %d is empty", i+1)
		case err != nil:
			return nil, fmt.Errorf("size %d, %q, is not a whole number", i+1, f)
		case n < 0 || n > MaxSceneSize:
			return nil, fmt.Errorf("size %d is out of range: want 0 (the family's own) to %d objects", n, MaxSceneSize)
		case slices.Contains(out, n):
			return nil, fmt.Errorf("size %d is given twice", n)
		}
		out = append(out, n)
	}
	return out, nil
}
