package scenes

import "fmt"

// GridTable returns cols × rows objects, one at the middle of each cell
// of a grid over the whole table, row by row from the table's near edge
// (object i in column i%cols and row i/cols), their colours in turn and
// every fourth a bowl. It is a crowded table that is fixed rather than
// drawn: at 8 × 6 the relations between its objects number in the
// thousands, as on a 48-object table of the scene-size series, and the
// benchmarks of the simulated model, the workflow and the scorer read the
// same one.
func GridTable(cols, rows int) []Object {
	objs := make([]Object, 0, cols*rows)
	for i := range cols * rows {
		x := TableMinX + (float64(i%cols)+0.5)*(TableMaxX-TableMinX)/float64(cols)
		y := TableMinY + (float64(i/cols)+0.5)*(TableMaxY-TableMinY)/float64(rows)
		color := Colors[i%len(Colors)]
		o := NewBlock(fmt.Sprintf("%s block %d", color, i), color, x, y)
		if i%4 == 3 {
			o = NewBowl(fmt.Sprintf("%s bowl %d", color, i), color, x, y)
		}
		objs = append(objs, o)
	}
	return objs
}
