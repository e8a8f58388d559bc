package tabletop

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/bench"
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

// CheckSceneSizes refuses a size that a cell of cells cannot be built at:
// a size below the objects a cell's table holds before any distractor is
// added (a family's own objects, and what its perturbation adds:
// multiplicity's look-alike, say) would add none, and the records (or a
// rendered image's name) would say that size while holding more objects.
// The smallest size the cells can build is named. A cell's own count is
// the same for every episode (the families draw a fixed number of blocks
// and bowls, and a perturbation adds or takes a fixed number), so the
// first episode of each cell stands for all of them. Cells at size 0 are
// at their own size and always fit.
func CheckSceneSizes(seed uint64, cells []bench.Cell) error {
	smallest, at := 0, ""
	seen := map[[2]string]bool{}
	for _, c := range cells {
		k := [2]string{c.Family, c.Perturbation}
		if c.Size == 0 || seen[k] {
			continue
		}
		seen[k] = true
		ep, err := MakeEpisode(seed, c.Family, c.Perturbation, 0)
		if err != nil {
			continue // the run reports a cell it cannot draw
		}
		if n := len(ep.Objects); n > smallest {
			smallest, at = n, c.Family+"/"+c.Perturbation
		}
	}
	for _, c := range cells {
		if c.Size > 0 && c.Size < smallest {
			n := c.Size
			obj := "objects"
			if n == 1 {
				obj = "object"
			}
			return fmt.Errorf("a table of %d %s cannot be built: %s holds %d objects before any distractor, and its records would say %d; the smallest size this grid can build is %d (0 plays each cell at its own size)",
				n, obj, at, smallest, n, smallest)
		}
	}
	return nil
}
