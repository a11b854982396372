package spreadsheet

import "github.com/xuri/excelize/v2"

// MaxRecalcCells is the largest workbook, in cells, whose formula results
// Save refreshes itself; a larger one is only marked for recalculation
// when it is opened by a spreadsheet application.
const MaxRecalcCells = 250_000

// refresh stores the current result of every formula with the formula, so
// that readers which do not calculate (the streaming reads here, viewers)
// see right values after an edit, and marks the workbook to be fully
// recalculated when a spreadsheet application opens it.
func (b *Book) refresh() {
	full := true
	_ = b.x.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &full})
	type cell struct{ sheet, ref string }
	var formulas []cell
	total := 0
	for _, sheet := range b.x.GetSheetList() {
		rows, err := b.x.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			return
		}
		for r, row := range rows {
			if total += len(row); total > MaxRecalcCells {
				return
			}
			for c := range row {
				ref := CellName(c+1, r+1)
				if f, _ := b.x.GetCellFormula(sheet, ref); f != "" {
					formulas = append(formulas, cell{sheet, ref})
				}
			}
		}
	}
	type result struct {
		cell
		formula, value string
	}
	var results []result
	for _, c := range formulas { // calculate every result before changing any cell
		f, _ := b.x.GetCellFormula(c.sheet, c.ref)
		v, err := b.x.CalcCellValue(c.sheet, c.ref, excelize.Options{RawCellValue: true})
		if err != nil {
			continue
		}
		results = append(results, result{c, f, v})
	}
	for _, r := range results {
		_ = b.x.SetCellDefault(r.sheet, r.ref, r.value)
		_ = b.x.SetCellFormula(r.sheet, r.ref, r.formula)
	}
}
