package spreadsheet

import (
	"context"
	"strconv"

	"github.com/xuri/excelize/v2"

	"convfiles/content"
)

// Cell is one cell as ReadCell describes it.
type Cell struct {
	Cell      string  `json:"cell"`
	Value     any     `json:"value"`     // a number, a string, a boolean, or null when empty
	Formatted string  `json:"formatted"` // the value as the sheet shows it
	Formula   string  `json:"formula,omitempty"`
	Type      string  `json:"type"` // empty, number, string, boolean, date, error, formula
	Format    *Format `json:"format,omitempty"`
}

// ReadCell returns one cell's value, formula and format. A formula whose
// result the file does not hold is calculated. In a workbook too large to
// edit, the cell is streamed and only its value is given.
func (b *Book) ReadCell(ctx context.Context, sheet, ref string) (Cell, error) {
	col, row, err := ParseCell(ref)
	if err != nil {
		return Cell{}, err
	}
	c := Cell{Cell: CellName(col, row)}
	if b.x == nil || b.sheetXML > b.lim.MaxEditable {
		vals, err := b.ReadRange(ctx, sheet, c.Cell)
		if err != nil {
			return Cell{}, err
		}
		c.Value = vals[0][0]
		c.Formatted, c.Type = formatted(c.Value), kindOf(c.Value)
		return c, nil
	}
	name, err := b.sheetName(sheet)
	if err != nil {
		return Cell{}, err
	}
	err = content.Guard("the sheet "+quote(name), func() error {
		raw, err := b.x.GetCellValue(name, c.Cell, excelize.Options{RawCellValue: true})
		if err != nil {
			return err
		}
		if c.Formatted, err = b.x.GetCellValue(name, c.Cell); err != nil {
			return err
		}
		if c.Formula, err = b.x.GetCellFormula(name, c.Cell); err != nil {
			return err
		}
		if c.Formula != "" && raw == "" {
			raw, _ = b.x.CalcCellValue(name, c.Cell, excelize.Options{RawCellValue: true})
			c.Formatted, _ = b.x.CalcCellValue(name, c.Cell)
		}
		t, err := b.x.GetCellType(name, c.Cell)
		if err != nil {
			return err
		}
		c.Value, c.Type = cellValue(raw, t)
		if c.Formula != "" {
			c.Formula = "=" + c.Formula
		}
		style, err := b.x.GetCellStyle(name, c.Cell)
		if err != nil {
			return err
		}
		f := b.formatOf(style)
		c.Format = &f
		return nil
	})
	if err != nil {
		return Cell{}, damagedSheet(name, err)
	}
	return c, nil
}

func cellValue(raw string, t excelize.CellType) (any, string) {
	switch {
	case raw == "":
		return nil, "empty"
	case t == excelize.CellTypeBool:
		return raw == "1" || raw == "TRUE", "boolean"
	case t == excelize.CellTypeError:
		return raw, "error"
	case t == excelize.CellTypeDate:
		return raw, "date"
	case t == excelize.CellTypeSharedString, t == excelize.CellTypeInlineString:
		return raw, "string"
	}
	v := typed(raw)
	return v, kindOf(v)
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "empty"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "string"
}

func formatted(v any) string {
	if v == nil {
		return ""
	}
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return v.(string)
}
