package reports

import east "github.com/yuin/goldmark/extension/ast"

// table writes a table with ruled cells, its header row bold on grey;
// columns share the width by their content, and a cell's text wraps.
func (w *writer) table(t *east.Table) {
	var rows [][]string
	var header []bool
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, w.plain(c))
		}
		rows = append(rows, cells)
		_, isHead := r.(*east.TableHeader)
		header = append(header, isHead)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	const size, pad = 9.5, 4.0
	widths := make([]float64, cols)
	for i, r := range rows {
		w.setFont(map[bool]string{true: "B", false: ""}[header[i]], size)
		for j, cell := range r {
			widths[j] = max(widths[j], w.pdf.GetStringWidth(cell)+2*pad+1)
		}
	}
	total := 0.0
	for _, cw := range widths {
		total += cw
	}
	if total > w.width() {
		for j := range widths {
			widths[j] *= w.width() / total
		}
	}
	w.space(4)
	lh := size * 1.3
	w.pdf.SetDrawColor(200, 205, 214)
	for i, r := range rows {
		w.setFont(map[bool]string{true: "B", false: ""}[header[i]], size)
		lines := make([][]string, cols)
		height := lh
		for j := range cols {
			text := ""
			if j < len(r) {
				text = r[j]
			}
			lines[j] = splitOrOne(w.pdf, text, widths[j]-2*pad)
			height = max(height, float64(len(lines[j]))*lh+2)
		}
		if _, ph := w.pdf.GetPageSize(); w.pdf.GetY()+height > ph-w.bottom() {
			w.pdf.AddPage()
		}
		x, y := w.leftEdge(), w.pdf.GetY()
		for j := range cols {
			w.pdf.SetFillColor(238, 241, 246)
			w.pdf.Rect(x, y, widths[j], height, map[bool]string{true: "FD", false: "D"}[header[i]])
			for k, line := range lines[j] {
				w.pdf.SetXY(x+pad, y+1+float64(k)*lh)
				w.pdf.CellFormat(widths[j]-2*pad, lh, line, "", 0, align(t, j), false, 0, "")
			}
			x += widths[j]
		}
		w.pdf.SetXY(w.leftEdge(), y+height)
	}
	w.space(8)
}

// align is a column's alignment as the table's delimiter row sets it.
func align(t *east.Table, col int) string {
	if col < len(t.Alignments) {
		switch t.Alignments[col] {
		case east.AlignRight:
			return "R"
		case east.AlignCenter:
			return "C"
		}
	}
	return "L"
}
