package content

import (
	"math"
)

// maxOrderedBlocks bounds the blocks of a page put in reading order by
// Breuel's rules, whose cost grows with the cube of their number; a page
// with more is read in the order its blocks were found.
const maxOrderedBlocks = 2000

// sortBlocks puts blocks, in the order they were built, into reading
// order as poppler does: cells of a table row by row; otherwise a block
// comes before another that it overlaps in x and is above (rule 1), or
// that it is left of, unless a third block lies between them (rule 2);
// the order is a depth-first topological sort.
func sortBlocks(blocks []*textBlock) []*textBlock {
	if len(blocks) > maxOrderedBlocks {
		return blocks
	}
	findTables(blocks)
	stretch(blocks)
	sorted := make([]*textBlock, 0, len(blocks))
	visited := make([]bool, len(blocks))
	var visit func(i int)
	visit = func(i int) {
		visited[i] = true
		b1 := blocks[i]
		for j, b2 := range blocks {
			if !visited[j] && before(blocks, b2, b1) {
				visit(j)
			}
		}
		sorted = append(sorted, b1)
	}
	for i := range blocks {
		if !visited[i] {
			visit(i)
		}
	}
	return sorted
}

// before reports whether b2 must be read before b1.
func before(blocks []*textBlock, b2, b1 *textBlock) bool {
	if b1.table >= 0 && b1.table == b2.table {
		return b2.x1 <= b1.x0 && b2.y0 <= b1.y1 && b2.y1 >= b1.y0 || b2.y1 <= b1.y0
	}
	return beforeByRule1(b2, b1) || beforeByRule2(b2, b1) && !between(blocks, b1, b2)
}

// stretch sets the bounds reading order compares: a table's cells get
// the table's, and every other block is widened in x toward the blocks
// beside it, over the blocks below it.
func stretch(blocks []*textBlock) {
	for _, b1 := range blocks {
		if b1.table >= 0 {
			continue
		}
		xMin, xMax := math.Inf(-1), math.Inf(1)
		for _, b2 := range blocks {
			if b2 == b1 || !(b1.y0 <= b2.y1 && b1.y1 >= b2.y0) {
				continue
			}
			if b2.x0 < xMax && b2.x0 > b1.x1 {
				xMax = b2.x0
			}
			if b2.x1 > xMin && b2.x1 < b1.x0 {
				xMin = b2.x1
			}
		}
		for _, b2 := range blocks {
			if b2 == b1 || b2.y0 < b1.y1 {
				continue
			}
			if b2.x1 > b1.ex1 && b2.x1 <= xMax {
				b1.ex1 = b2.x1
			}
			if b2.x0 < b1.ex0 && b2.x0 >= xMin {
				b1.ex0 = b2.x0
			}
		}
	}
}

// beforeByRule1: a overlaps b in x and starts above it.
func beforeByRule1(a, b *textBlock) bool {
	overlap := a.ex0 <= b.ex0 && b.ex0 <= a.ex1 || b.ex0 <= a.ex0 && a.ex0 <= b.ex1
	return overlap && a.ey0 < b.ey0
}

// beforeByRule2: a ends left of where b starts.
func beforeByRule2(a, b *textBlock) bool { return a.ex1-b.ex0 <= 0 }

// between reports a block c with b1 before c and c before b2 by rule 1,
// which keeps rule 2 from putting b2 before b1.
func between(blocks []*textBlock, b1, b2 *textBlock) bool {
	for _, c := range blocks {
		if c != b1 && c != b2 && beforeByRule1(b1, c) && beforeByRule1(c, b2) {
			return true
		}
	}
	return false
}
