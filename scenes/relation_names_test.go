package scenes

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestReadRelation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want RelationReading
		ok   bool
		why  string
	}{
		{"left_of", RelationReading{RelLeftOf, false}, true, "the table's own name reads as itself"},
		{"right_of", RelationReading{RelRightOf, false}, true, "the table's own name reads as itself"},
		{"above", RelationReading{RelAbove, false}, true, "the table's own name reads as itself"},
		{"below", RelationReading{RelBelow, false}, true, "the table's own name, planar: nearer the robots, not under"},
		{"inside_of", RelationReading{RelInsideOf, false}, true, "the table's own name reads as itself"},
		{"on_top_of", RelationReading{RelOnTopOf, false}, true, "the table's own name reads as itself"},
		{"near", RelationReading{RelNear, false}, true, "the table's own name reads as itself"},
		{"to the left of", RelationReading{RelLeftOf, false}, true, "the usual English phrase"},
		{"Left Of", RelationReading{RelLeftOf, false}, true, "case does not matter"},
		{"left-of", RelationReading{RelLeftOf, false}, true, "a hyphen reads as a space"},
		{"  left   of ", RelationReading{RelLeftOf, false}, true, "runs of space read as one, ends trimmed"},
		{"is left of", RelationReading{RelLeftOf, false}, true, "a leading \"is\" is dropped"},
		{"left", RelationReading{RelLeftOf, false}, true, "the bare direction"},
		{"on the right side of", RelationReading{RelRightOf, false}, true, "a longer phrase of the same direction"},
		{"behind", RelationReading{RelAbove, false}, true, "farther from the camera, which stands on the robots' side: larger y"},
		{"far from the robot", RelationReading{RelAbove, false}, true, "away from the robots is larger y"},
		{"beyond", RelationReading{RelAbove, false}, true, "past the other object, seen from the robots"},
		{"in front of", RelationReading{RelBelow, false}, true, "nearer the camera and the robots: smaller y"},
		{"closer to the robot", RelationReading{RelBelow, false}, true, "nearer the robots: smaller y"},
		{"on", RelationReading{RelOnTopOf, false}, true, "a block on a block"},
		{"on top of", RelationReading{RelOnTopOf, false}, true, "a block on a block"},
		{"stacked on", RelationReading{RelOnTopOf, false}, true, "a block on a block"},
		{"in", RelationReading{RelInsideOf, false}, true, "a block in a bowl"},
		{"inside", RelationReading{RelInsideOf, false}, true, "a block in a bowl"},
		{"inside of", RelationReading{RelInsideOf, false}, true, "a block in a bowl"},
		{"in the", RelationReading{RelInsideOf, false}, true, "what is left of \"in the bowl\" without its object"},
		{"next to", RelationReading{RelNear, false}, true, "close together on the table"},
		{"beside", RelationReading{RelNear, false}, true, "close together on the table"},
		{"close to", RelationReading{RelNear, false}, true, "close together; not \"close to the robot\""},
		{"contains", RelationReading{RelInsideOf, true}, true, "the bowl contains the block: the block is inside_of the bowl"},
		{"under", RelationReading{RelOnTopOf, true}, true, "a block under another: the other is on_top_of it"},
		{"beneath", RelationReading{RelOnTopOf, true}, true, "a block under another: the other is on_top_of it"},
		{"over", RelationReading{}, false, "above on the table or on top of? not guessed"},
		{"same color as", RelationReading{}, false, "not a relation of the table's geometry"},
		{"touching", RelationReading{}, false, "not a relation the table holds"},
		{"left of and near", RelationReading{}, false, "two relations in one name are not split"},
		{"is", RelationReading{}, false, "the verb alone is no relation"},
		{"", RelationReading{}, false, "no name"},
	}
	for _, tt := range tests {
		got, ok := ReadRelation(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ReadRelation(%q) = %+v, %v; want %+v, %v (%s)", tt.name, got, ok, tt.want, tt.ok, tt.why)
		}
	}
}

// TestRelationSynonymsDocumented wants docs/metrics.md's table of
// relation names to list exactly the names ReadRelation reads, row by row.
func TestRelationSynonymsDocumented(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	code := regexp.MustCompile("`([^`]*)`")
	for _, s := range relationSynonyms {
		head := "| `" + s.reading.Relation + "` | "
		if s.reading.Reversed {
			head = "| `" + s.reading.Relation + "`, reversed | "
		}
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, head) })
		if i < 0 {
			t.Errorf("docs/metrics.md: no row beginning %q", head)
			continue
		}
		var documented []string
		for _, m := range code.FindAllStringSubmatch(strings.TrimPrefix(lines[i], head), -1) {
			documented = append(documented, m[1])
		}
		if !slices.Equal(documented, s.names) {
			t.Errorf("docs/metrics.md, row %q: lists %q; the code reads %q", head, documented, s.names)
		}
	}
}
