package formats

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"convfiles/content/spreadsheet"
	"convfiles/files"
)

// MaxRowCells bounds the cells one fromRows writes.
const MaxRowCells = 1_000_000

// FromRowsArgs are the rows of a new workbook and how it looks: a header
// row (bold, frozen, with an autofilter), a type and a width per column.
type FromRowsArgs struct {
	Rows   []json.RawMessage `json:"rows"`
	Name   string            `json:"name"`
	Sheet  string            `json:"sheet,omitempty"`
	Header []string          `json:"header,omitempty"`
	// Types are the columns' types, in order: text, number, integer,
	// percent or date (ISO dates become dates of the sheet).
	Types  []string  `json:"types,omitempty"`
	Widths []float64 `json:"widths,omitempty"` // in characters
	// Freeze and AutoFilter, true by default with a header, keep it in
	// view and give it filter buttons.
	Freeze     *bool `json:"freeze,omitempty"`
	AutoFilter *bool `json:"auto_filter,omitempty"`
}

// columnFormats are the number formats of the column types.
var columnFormats = map[string]string{"text": "@", "number": "#,##0.00", "integer": "#,##0", "percent": "0.0%", "date": "yyyy-mm-dd"}

// FromRows is spreadsheet_from_rows, files.spreadsheet.fromRows: a new
// XLSX workbook from rows, arrays of values or objects (their keys, in
// the order of the first, make the header). A name that is taken is
// replaced, its content kept as a version.
func FromRows(ctx context.Context, e Env, a FromRowsArgs) (Edited, error) {
	const op = "spreadsheet.fromRows"
	bad := func(msg string, args ...any) (Edited, error) {
		return Edited{}, files.E(op, files.KindInvalid, a.Name, fmt.Sprintf(msg, args...), nil)
	}
	if !strings.EqualFold(path.Ext(a.Name), ".xlsx") {
		return bad(`name the workbook with .xlsx, like "sales.xlsx"`)
	}
	header, rows, err := decodeRows(a.Rows, a.Header)
	if err != nil {
		return bad("%v", err)
	}
	for i, t := range a.Types {
		if _, ok := columnFormats[t]; !ok {
			return bad("types[%d] %q is not text, number, integer, percent or date", i, t)
		}
	}
	b, err := spreadsheet.New(a.Sheet)
	if err != nil {
		return Edited{}, refused(op, a.Name, err)
	}
	defer b.Close()
	table := rows
	if len(header) > 0 {
		table = append([][]any{header}, rows...)
	}
	if err := typeValues(table[len(table)-len(rows):], a.Types); err != nil {
		return bad("%v", err)
	}
	written, err := b.WriteRange(a.Sheet, "A1", table)
	if err != nil {
		return Edited{}, refused(op, a.Name, err)
	}
	width := 0
	for _, r := range table {
		width = max(width, len(r))
	}
	if err := styleTable(b, a, len(header) > 0, len(table), width); err != nil {
		return Edited{}, refused(op, a.Name, err)
	}
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		return Edited{}, err
	}
	w, err := e.save(ctx, a.Name, "", buf.Bytes(), source{})
	return Edited{File: w, Range: written}, err
}

// decodeRows reads rows as arrays, or as objects whose keys (in the
// first object's order, after the header given) name the columns.
func decodeRows(list []json.RawMessage, header []string) ([]any, [][]any, error) {
	if len(list) == 0 {
		return nil, nil, fmt.Errorf(`rows must be an array of rows: arrays of values, like [["north", 12]], or objects, like [{"region": "north", "total": 12}]`)
	}
	cols := append([]string(nil), header...)
	if bytes.HasPrefix(bytes.TrimSpace(list[0]), []byte("{")) && len(cols) == 0 {
		keys, err := objectKeys(list[0])
		if err != nil {
			return nil, nil, err
		}
		cols = keys
	}
	var rows [][]any
	cells := 0
	for i, r := range list {
		var row []any
		if bytes.HasPrefix(bytes.TrimSpace(r), []byte("{")) {
			var obj map[string]any
			if err := json.Unmarshal(r, &obj); err != nil {
				return nil, nil, fmt.Errorf("rows[%d]: %v", i, err)
			}
			for _, c := range cols {
				row = append(row, obj[c])
			}
		} else if err := json.Unmarshal(r, &row); err != nil {
			return nil, nil, fmt.Errorf("rows[%d] is neither an array of values nor an object", i)
		}
		if cells += len(row); cells > MaxRowCells {
			return nil, nil, fmt.Errorf("the rows hold more than %d cells", MaxRowCells)
		}
		rows = append(rows, row)
	}
	h := make([]any, len(cols))
	for i, c := range cols {
		h[i] = c
	}
	return h, rows, nil
}

// objectKeys are an object's keys in the order they are written.
func objectKeys(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token() // {
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, fmt.Sprint(t))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// typeValues turns the dates of date columns into the sheet's date
// numbers (days since 1899-12-30), which their format shows as dates.
func typeValues(rows [][]any, types []string) error {
	for c, t := range types {
		if t != "date" {
			continue
		}
		for i, r := range rows {
			if c >= len(r) {
				continue
			}
			s, ok := r[c].(string)
			if !ok || s == "" {
				continue
			}
			d, err := time.Parse("2006-01-02", s[:min(len(s), 10)])
			if err != nil {
				return fmt.Errorf("row %d, column %d: %q is not a date (YYYY-MM-DD)", i+1, c+1, s)
			}
			r[c] = d.Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)).Hours() / 24
		}
	}
	return nil
}

// styleTable gives the header its look, filters and pane, and each
// column its format and width.
func styleTable(b *spreadsheet.Book, a FromRowsArgs, header bool, rows, width int) error {
	cols := max(len(a.Types), len(a.Widths))
	first := 1
	if header {
		first = 2
	}
	for c := range cols {
		col := spreadsheet.CellName(c+1, 1)
		col = col[:len(col)-1]
		f := spreadsheet.Format{}
		if c < len(a.Widths) {
			f.ColumnWidth = a.Widths[c]
		}
		if c < len(a.Types) && rows >= first {
			f.NumberFormat = columnFormats[a.Types[c]]
		}
		if _, err := b.SetFormat(a.Sheet, fmt.Sprintf("%s%d:%s%d", col, first, col, max(rows, first)), f); err != nil {
			return err
		}
	}
	if !header {
		return nil
	}
	last := spreadsheet.CellName(width, 1)
	bold := true
	if _, err := b.SetFormat(a.Sheet, "A1:"+last, spreadsheet.Format{Bold: &bold, FillColor: "#DDE6F3"}); err != nil {
		return err
	}
	if a.Freeze == nil || *a.Freeze {
		if err := b.FreezeTopRow(a.Sheet); err != nil {
			return err
		}
	}
	if a.AutoFilter == nil || *a.AutoFilter {
		_, err := b.AutoFilter(a.Sheet, "A1:"+spreadsheet.CellName(width, rows))
		return err
	}
	return nil
}
