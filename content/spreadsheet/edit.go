package spreadsheet

import (
	"math"

	"convfiles/content"

	"github.com/xuri/excelize/v2"
)

// New returns an empty workbook with one sheet, named sheet ("" is
// "Sheet1"), for a write to a workbook that does not exist yet.
func New(sheet string) (*Book, error) {
	x := excelize.NewFile()
	if sheet != "" && sheet != "Sheet1" {
		if err := x.SetSheetName("Sheet1", sheet); err != nil {
			return nil, badSheetName(sheet, err)
		}
	}
	return &Book{x: x, lim: DefaultLimits(), fresh: true, changed: true}, nil
}

// Fresh tells whether the workbook was made by New rather than read.
func (b *Book) Fresh() bool { return b.fresh }

// WriteRange writes rows of values from the cell start on. A string that
// begins with "=" is a formula; null clears a cell. It returns the range
// written.
func (b *Book) WriteRange(sheet, start string, rows [][]any) (string, error) {
	name, err := b.editSheet(sheet)
	if err != nil {
		return "", err
	}
	col, row, err := ParseCell(start)
	if err != nil {
		return "", err
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if len(rows) == 0 || width == 0 {
		return "", content.Refuse(content.ErrBadRequest, "there is nothing to write: give rows of values, like [[\"Name\", \"Total\"], [\"a\", 1]]")
	}
	if row+len(rows)-1 > excelize.TotalRows || col+width-1 > excelize.MaxColumns {
		return "", content.Refuse(content.ErrBadRequest, "%d rows of %d values from %s run past the sheet's last row or column", len(rows), width, start)
	}
	for i, r := range rows {
		for j, v := range r {
			if err := b.setValue(name, CellName(col+j, row+i), v); err != nil {
				return "", err
			}
		}
	}
	return CellName(col, row) + ":" + CellName(col+width-1, row+len(rows)-1), nil
}

// WriteCell writes one cell: a value, or a formula when formula is given
// (with or without its "="), then its format when format is not nil.
func (b *Book) WriteCell(sheet, ref string, value any, formula string, format *Format) error {
	name, err := b.editSheet(sheet)
	if err != nil {
		return err
	}
	col, row, err := ParseCell(ref)
	if err != nil {
		return err
	}
	cell := CellName(col, row)
	if formula != "" {
		if len(formula) > 0 && formula[0] == '=' {
			formula = formula[1:]
		}
		value = "=" + formula
	}
	if err := b.setValue(name, cell, value); err != nil {
		return err
	}
	if format != nil {
		_, err = b.SetFormat(name, cell, *format)
	}
	return err
}

// setValue writes one JSON value into a cell.
func (b *Book) setValue(sheet, cell string, v any) error {
	var err error
	switch v := v.(type) {
	case nil:
		err = b.x.SetCellValue(sheet, cell, nil)
	case bool:
		err = b.x.SetCellBool(sheet, cell, v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return content.Refuse(content.ErrBadRequest, "cell %s: %v cannot be stored in a spreadsheet", cell, v)
		}
		err = b.x.SetCellFloat(sheet, cell, v, -1, 64)
	case int64:
		err = b.x.SetCellInt(sheet, cell, v)
	case int:
		err = b.x.SetCellInt(sheet, cell, int64(v))
	case string:
		if len(v) > 1 && v[0] == '=' {
			err = b.x.SetCellFormula(sheet, cell, v[1:])
		} else if len(v) > excelize.TotalCellChars {
			return content.Refuse(content.ErrBadRequest, "cell %s: a cell holds at most %d characters", cell, excelize.TotalCellChars)
		} else {
			err = b.x.SetCellStr(sheet, cell, v)
		}
	default:
		return content.Refuse(content.ErrBadRequest, "cell %s: %T cannot be stored in a cell: use a number, a string, true or false, or null", cell, v)
	}
	if err != nil {
		return content.Refuse(content.ErrBadRequest, "cell %s: %v", cell, err)
	}
	b.changed = true
	return nil
}

// editSheet checks that the workbook may be edited and resolves sheet.
func (b *Book) editSheet(sheet string) (string, error) {
	if err := b.editable(); err != nil {
		return "", err
	}
	return b.sheetName(sheet)
}

// AddSheet appends an empty sheet.
func (b *Book) AddSheet(name string) error {
	if err := b.editable(); err != nil {
		return err
	}
	if _, err := b.sheetName(name); err == nil || name == "" {
		return content.Refuse(content.ErrBadRequest, "there is already a sheet %s: choose another name", quote(name))
	}
	if _, err := b.x.NewSheet(name); err != nil {
		return badSheetName(name, err)
	}
	b.changed = true
	return nil
}

// DeleteSheet removes a sheet; the last one stays.
func (b *Book) DeleteSheet(name string) error {
	name, err := b.editSheet(name)
	if err != nil {
		return err
	}
	if len(b.SheetNames()) == 1 {
		return content.Refuse(content.ErrBadRequest, "%s is the workbook's only sheet: a workbook keeps at least one", quote(name))
	}
	if err := b.x.DeleteSheet(name); err != nil {
		return content.Refuse(content.ErrBadRequest, "cannot delete the sheet %s: %v", quote(name), err)
	}
	b.changed = true
	return nil
}

// InsertRows inserts count empty rows after the row after (0: at the top),
// moving the rows below down.
func (b *Book) InsertRows(sheet string, after, count int) error {
	name, err := b.editSheet(sheet)
	if err != nil {
		return err
	}
	if after < 0 || count < 1 || after+count > excelize.TotalRows {
		return content.Refuse(content.ErrBadRequest, "insert at least one row after a row from 0 (the top) on; got %d rows after row %d", count, after)
	}
	if err := b.x.InsertRows(name, after+1, count); err != nil {
		return content.Refuse(content.ErrBadRequest, "cannot insert rows: %v", err)
	}
	b.changed = true
	return nil
}

// MaxDeleteRows is the most rows one DeleteRows removes.
const MaxDeleteRows = 10_000

// DeleteRows removes count rows from the row start on, moving the rows
// below up.
func (b *Book) DeleteRows(sheet string, start, count int) error {
	name, err := b.editSheet(sheet)
	if err != nil {
		return err
	}
	if start < 1 || count < 1 || count > MaxDeleteRows {
		return content.Refuse(content.ErrBadRequest, "delete 1 to %d rows from a row numbered from 1; got %d rows from row %d", MaxDeleteRows, count, start)
	}
	for range count {
		if err := b.x.RemoveRow(name, start); err != nil {
			return content.Refuse(content.ErrBadRequest, "cannot delete rows: %v", err)
		}
	}
	b.changed = true
	return nil
}

// AutoFilter puts filter buttons on a range's header row.
func (b *Book) AutoFilter(sheet, ref string) (string, error) {
	name, err := b.editSheet(sheet)
	if err != nil {
		return "", err
	}
	rg, err := ParseRange(ref)
	if err != nil {
		return "", err
	}
	if rg.ToRow == 0 || rg.ToCol == 0 {
		return "", content.Refuse(content.ErrBadRequest, "give the filter a range with both corners, like \"A1:D50\"")
	}
	area := CellName(rg.FromCol, rg.FromRow) + ":" + CellName(rg.ToCol, rg.ToRow)
	if err := b.x.AutoFilter(name, area, nil); err != nil {
		return "", content.Refuse(content.ErrBadRequest, "cannot filter %s: %v", area, err)
	}
	b.changed = true
	return area, nil
}

func badSheetName(name string, err error) error {
	return content.Refuse(content.ErrBadRequest,
		"%s cannot name a sheet (%v): a sheet name has 1 to 31 characters, none of : \\ / ? * [ ]", quote(name), err)
}

// FreezeTopRow keeps the sheet's first row in view as the rest scrolls:
// a header row.
func (b *Book) FreezeTopRow(sheet string) error {
	name, err := b.editSheet(sheet)
	if err != nil {
		return err
	}
	err = b.x.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}})
	if err != nil {
		return content.Refuse(content.ErrBadRequest, "the header row cannot be frozen: %v", err)
	}
	b.changed = true
	return nil
}
