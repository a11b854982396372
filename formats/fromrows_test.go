package formats_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"convfiles/files"
	"convfiles/formats"
)

// TestAWorkbookFromRows makes a workbook from objects: their keys are the
// header (bold, frozen, filtered), numbers stay numbers, ISO dates become
// dates, and each column has its format and width.
func TestAWorkbookFromRows(t *testing.T) {
	e := env(t)
	rows := []json.RawMessage{json.RawMessage(`{"day": "2026-01-05", "region": "north", "total": 1234.5, "share": 0.25}`),
		json.RawMessage(`{"day": "2026-01-06", "region": "south", "total": 99, "share": 0.75}`)}
	freeze := true
	made, err := formats.FromRows(ctx, e, formats.FromRowsArgs{Rows: rows, Name: "sales.xlsx", Sheet: "Sales",
		Types: []string{"date", "text", "number", "percent"}, Widths: []float64{12, 10, 14, 8}, Freeze: &freeze})
	if err != nil || made.Range != "A1:D3" {
		t.Fatalf("%+v, %v", made, err)
	}
	data, _, _ := e.Space.ReadFile(ctx, "sales.xlsx", 1<<20)
	x, err := excelize.OpenReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	cell := func(ref string) string { v, _ := x.GetCellValue("Sales", ref); return v }
	for ref, want := range map[string]string{"A1": "day", "B1": "region", "C1": "total", "D1": "share", "A2": "2026-01-05", "C2": "1,234.50", "D3": "75.0%"} {
		if got := cell(ref); got != want {
			t.Errorf("%s shows %q, want %q", ref, got, want)
		}
	}
	if raw, _ := x.GetCellValue("Sales", "A2", excelize.Options{RawCellValue: true}); raw != "46027" {
		t.Errorf("the date is stored as %q, not the sheet's date number 46027", raw)
	}
	if w, _ := x.GetColWidth("Sales", "C"); w != 14 {
		t.Errorf("column C is %v wide", w)
	}
	panes, _ := x.GetPanes("Sales")
	if !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("the header is not frozen: %+v", panes)
	}
	if style, _ := x.GetCellStyle("Sales", "A1"); style == 0 {
		t.Error("the header has no style")
	}
	for _, c := range []struct {
		rows []json.RawMessage
		name string
		says string
	}{
		{nil, "x.xlsx", "rows must be an array"},
		{[]json.RawMessage{json.RawMessage(`"a row"`)}, "x.xlsx", "rows[0] is neither an array of values nor an object"},
		{[]json.RawMessage{json.RawMessage(`[1]`)}, "x.csv", ".xlsx"},
		{[]json.RawMessage{json.RawMessage(`["2026-13-45"]`)}, "x.xlsx", "is not a date"},
		// A narrow first row does not hide a wide one after it.
		{[]json.RawMessage{json.RawMessage(`[1]`), json.RawMessage("[" + strings.Repeat("1,", formats.MaxRowCells) + "1]")}, "x.xlsx", "more than 1000000 cells"},
	} {
		args := formats.FromRowsArgs{Rows: c.rows, Name: c.name, Types: []string{"date"}}
		if _, err := formats.FromRows(ctx, e, args); files.KindOf(err) != files.KindInvalid || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s → %s: %v, want it to say %q", c.rows, c.name, err, c.says)
		}
	}
}
