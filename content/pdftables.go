package content

import "math"

// findTables marks blocks that are cells of a table, as poppler does: a
// block, its nearest neighbours to the right and below, and the one
// diagonally below-right, aligned in x and in y, are cells of one table.
// Every block's compared bounds start as its own; a cell's become its
// table's.
func findTables(blocks []*textBlock) {
	for _, b := range blocks {
		b.ex0, b.ex1, b.ey0, b.ey1, b.table = b.x0, b.x1, b.y0, b.y1, -1
	}
	tables := 0
	for _, b1 := range blocks {
		right, below, diag := neighbours(blocks, b1)
		if right == nil || below == nil || diag == nil || !gridOf(right, below, diag) {
			continue
		}
		if !aligned(b1, right, below, diag) {
			continue
		}
		id := max(b1.table, right.table, below.table, diag.table)
		if id < 0 {
			id, tables = tables, tables+1
		}
		b1.table, right.table, below.table, diag.table = id, id, id, id
	}
	if tables == 0 {
		return
	}
	type box struct{ x0, x1, y0, y1 float64 }
	env := make([]box, tables)
	for i := range env {
		env[i] = box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	}
	for _, b := range blocks {
		if e := &env[max(b.table, 0)]; b.table >= 0 {
			e.x0, e.x1, e.y0, e.y1 = math.Min(e.x0, b.x0), math.Max(e.x1, b.x1), math.Min(e.y0, b.y0), math.Max(e.y1, b.y1)
		}
	}
	for _, b := range blocks {
		if b.table >= 0 {
			e := env[b.table]
			b.ex0, b.ex1, b.ey0, b.ey1 = e.x0, e.x1, e.y0, e.y1
		}
	}
}

// neighbours finds the closest block right of b1 on its rows, the
// closest below it in its columns, and the closest below and right.
func neighbours(blocks []*textBlock, b1 *textBlock) (right, below, diag *textBlock) {
	rx, by, dx, dy := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	for _, b2 := range blocks {
		switch {
		case b2 == b1:
		case b2.y0 <= b1.y1 && b2.y1 >= b1.y0 && b2.x0 > b1.x1 && b2.x0 < rx:
			rx, right = b2.x0, b2
		case b2.x0 <= b1.x1 && b2.x1 >= b1.x0 && b2.y0 > b1.y1 && b2.y0 < by:
			by, below = b2.y0, b2
		case b2.x0 > b1.x1 && b2.x0 < dx && b2.y0 > b1.y1 && b2.y0 < dy:
			dx, dy, diag = b2.x0, b2.y0, b2
		}
	}
	return
}

// gridOf checks the three neighbours form a grid's corner: the diagonal
// overlaps neither of the others on their own axis, and lies under the
// right one and beside the one below.
func gridOf(right, below, diag *textBlock) bool {
	xo := func(a, b *textBlock) bool { return a.x0 <= b.x1 && a.x1 >= b.x0 }
	yo := func(a, b *textBlock) bool { return a.y0 <= b.y1 && a.y1 >= b.y0 }
	if xo(below, diag) || yo(right, diag) || xo(right, below) || yo(right, below) {
		return false
	}
	return xo(diag, right) && yo(diag, below)
}

// aligned checks the four blocks line up in x (centres, left or right
// edges) and in y (centres, tops or bottoms).
func aligned(b1, right, below, diag *textBlock) bool {
	size := math.Min(math.Min(b1.size(), right.size()), math.Min(below.size(), diag.size()))
	dx, dy := size*minColSpacing1, size*maxIntraLineDelta
	near := func(a, b, d float64) bool { return math.Abs(a-b) <= d }
	cx := func(b *textBlock) float64 { return (b.x0 + b.x1) / 2 }
	cy := func(b *textBlock) float64 { return (b.y0 + b.y1) / 2 }
	inX := near(cx(b1), cx(below), dx) && near(cx(right), cx(diag), dx) ||
		near(b1.x0, below.x0, dx) && near(right.x0, diag.x0, dx) ||
		near(b1.x1, below.x1, dx) && near(right.x1, diag.x1, dx)
	inY := near(cy(b1), cy(right), dy) && near(cy(below), cy(diag), dy) ||
		near(b1.y0, right.y0, dy) && near(below.y0, diag.y0, dy) ||
		near(b1.y1, right.y1, dy) && near(below.y1, diag.y1, dy)
	return inX && inY
}

// size is the font size of the block's first word.
func (b *textBlock) size() float64 { return b.words[0].size }
