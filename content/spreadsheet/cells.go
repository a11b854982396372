package spreadsheet

import (
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"convfiles/content"
)

// Range is a rectangle of cells, 1-based and inclusive. A ToRow or ToCol
// of 0 means "to the sheet's last one".
type Range struct {
	FromCol, FromRow, ToCol, ToRow int
}

// ParseRange reads "A1:D50", "B2" (one cell), "A:C" (whole columns) or
// "2:10" (whole rows). Letters may be lower case; "$" anchors are ignored.
func ParseRange(ref string) (Range, error) {
	s := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(ref), "$", ""))
	if i := strings.LastIndexByte(s, '!'); i >= 0 { // "Sheet1!A1:B2": the sheet is given apart
		s = s[i+1:]
	}
	from, to, isRange := strings.Cut(s, ":")
	if !isRange {
		to = from
	}
	c1, r1, ok1 := parseEnd(from)
	c2, r2, ok2 := parseEnd(to)
	if !ok1 || !ok2 || (c1 == 0) != (c2 == 0) || (r1 == 0) != (r2 == 0) || c1 == 0 && r1 == 0 {
		return Range{}, content.Refuse(content.ErrBadRequest,
			"%q is not a cell range: write it like \"A1:D50\", \"B2\", \"A:C\" (whole columns) or \"2:10\" (whole rows)", ref)
	}
	rg := Range{FromCol: min(c1, c2), ToCol: max(c1, c2), FromRow: min(r1, r2), ToRow: max(r1, r2)}
	if rg.FromCol == 0 {
		rg.FromCol = 1
	}
	if rg.FromRow == 0 {
		rg.FromRow = 1
	}
	return rg, nil
}

// parseEnd reads "B12", "B" or "12" as column and row numbers, 0 for the
// part that is missing.
func parseEnd(s string) (col, row int, ok bool) {
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	if i > 0 {
		c, err := excelize.ColumnNameToNumber(s[:i])
		if err != nil {
			return 0, 0, false
		}
		col = c
	}
	if i < len(s) {
		r, err := strconv.Atoi(s[i:])
		if err != nil || r < 1 || r > excelize.TotalRows {
			return 0, 0, false
		}
		row = r
	}
	return col, row, s != ""
}

// ParseCell reads one cell reference such as "C7".
func ParseCell(ref string) (col, row int, err error) {
	rg, err := ParseRange(ref)
	if err != nil || rg.FromCol != rg.ToCol || rg.FromRow != rg.ToRow || rg.ToRow == 0 || rg.ToCol == 0 {
		return 0, 0, content.Refuse(content.ErrBadRequest, "%q is not a cell: write it like \"B2\"", ref)
	}
	return rg.FromCol, rg.FromRow, nil
}

// CellName writes column and row numbers as a reference such as "C7".
func CellName(col, row int) string {
	n, _ := excelize.CoordinatesToCellName(col, row)
	return n
}

// typed turns a cell's stored text into the JSON value an agent works
// with: numbers as numbers, everything else as strings, "" as null. Text
// that only looks like a number with a leading zero ("007") stays text.
func typed(raw string) any {
	if raw == "" {
		return nil
	}
	if looksNumeric(raw) {
		if f, err := strconv.ParseFloat(raw, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return raw
}

func looksNumeric(s string) bool {
	t := strings.TrimPrefix(s, "-")
	if t == "" || t[0] < '0' || t[0] > '9' {
		return false
	}
	if len(t) > 1 && t[0] == '0' && t[1] != '.' && t[1] != 'E' && t[1] != 'e' {
		return false
	}
	return strings.TrimLeft(t, "0123456789.eE+-") == ""
}
