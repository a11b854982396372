package mcp_test

import (
	"bytes"
	"image/jpeg"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/internal/storetest"
)

// upload puts the content samples named into conversation conv.
func upload(t *testing.T, e *env, conv string, names ...string) {
	t.Helper()
	storetest.PutSamples(t, e.store, conv, names...)
}

// TestSpreadsheetTools calls every spreadsheet_* tool.
func TestSpreadsheetTools(t *testing.T) {
	e := newEnv(t, "fmt")
	upload(t, e, "fmt", "budget.xlsx", "sample.csv")
	var sheets struct{ Sheets []struct{ Name string } }
	e.ok("spreadsheet_list_sheets", map[string]any{"file": "budget.xlsx"}, &sheets)
	if len(sheets.Sheets) != 2 || sheets.Sheets[0].Name != "Budget" {
		t.Fatalf("sheets %+v", sheets)
	}
	var sum struct {
		Rows    int
		Headers []any
	}
	e.ok("spreadsheet_get_sheet_summary", map[string]any{"file": "sample.csv"}, &sum)
	if sum.Rows < 2 || sum.Headers[0] != "id" {
		t.Fatalf("CSV summary %+v", sum)
	}
	e.ok("spreadsheet_write_range", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "start": "B2", "values": [][]any{{20}}}, nil)
	var cell struct {
		Value   any
		Formula string
	}
	e.ok("spreadsheet_read_cell", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "cell": "D5"}, &cell)
	if cell.Value != 115.0 || cell.Formula != "=SUM(D2:D4)" {
		t.Fatalf("D5 after B2 became 20: %+v", cell)
	}
	e.ok("spreadsheet_write_cell", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "cell": "E1", "value": "Note", "format": map[string]any{"bold": true}}, nil)
	e.ok("spreadsheet_add_sheet", map[string]any{"file": "budget.xlsx", "name": "Extra"}, nil)
	e.ok("spreadsheet_delete_sheet", map[string]any{"file": "budget.xlsx", "name": "Notes"}, nil)
	e.ok("spreadsheet_insert_rows", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "at": 1, "count": 2}, nil)
	e.ok("spreadsheet_delete_rows", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "at": 2, "count": 2}, nil)
	var formatted struct{ Cells int }
	e.ok("spreadsheet_set_format", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "range": "A1:D1", "format": map[string]any{"fill_color": "#FFEE00", "number_format": "0.00"}}, &formatted)
	if formatted.Cells != 4 {
		t.Fatalf("formatted %d cells", formatted.Cells)
	}
	e.ok("spreadsheet_auto_filter", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "range": "A1:D5"}, nil)
	var vals struct{ Values [][]any }
	e.ok("spreadsheet_read_range", map[string]any{"file": "budget.xlsx", "sheet": "Budget", "range": "A1:E2"}, &vals)
	if vals.Values[0][4] != "Note" || vals.Values[1][1] != 20.0 || vals.Values[1][3] != 50.0 {
		t.Fatalf("after the edits: %v", vals.Values)
	}
	e.ok("spreadsheet_list_sheets", map[string]any{"file": "budget.xlsx"}, &sheets)
	if len(sheets.Sheets) != 2 || sheets.Sheets[1].Name != "Extra" {
		t.Fatalf("sheets after add and delete %+v", sheets)
	}
	if msg := e.refused("spreadsheet_read_range", map[string]any{"file": "budget.xlsx", "sheet": "Nope", "range": "A1"}); !strings.Contains(msg, `"Budget"`) {
		t.Errorf("a missing sheet: %s", msg)
	}
	if msg := e.refused("spreadsheet_write_range", map[string]any{"file": "sample.csv", "start": "A1", "values": [][]any{{1}}}); !strings.Contains(msg, "read-only") {
		t.Errorf("writing a CSV: %s", msg)
	}
}

// TestPDFTools calls every pdf_* tool.
func TestPDFTools(t *testing.T) {
	e := newEnv(t, "fmt")
	upload(t, e, "fmt", "form.pdf", "sample.pdf", "sample.png")
	var info struct {
		Pages   int
		HasForm bool `json:"has_form"`
	}
	e.ok("pdf_info", map[string]any{"file": "form.pdf"}, &info)
	if info.Pages != 1 || !info.HasForm {
		t.Fatalf("info %+v", info)
	}
	var fields struct{ Fields []struct{ Name string } }
	e.ok("pdf_get_form_fields", map[string]any{"file": "form.pdf"}, &fields)
	if len(fields.Fields) != 4 {
		t.Fatalf("fields %+v", fields)
	}
	var filled struct{ Filled []string }
	e.ok("pdf_fill_form", map[string]any{"file": "form.pdf", "fields": map[string]any{"full_name": "Grace Hopper"}}, &filled)
	if len(filled.Filled) != 1 {
		t.Fatalf("filled %+v", filled)
	}
	e.ok("pdf_add_page", map[string]any{"file": "form.pdf", "orientation": "landscape"}, nil)
	e.ok("pdf_add_text", map[string]any{"file": "form.pdf", "page": 2, "text": "Hello", "position": map[string]any{"x": 50, "y": 50}}, nil)
	e.ok("pdf_add_image", map[string]any{"file": "form.pdf", "page": 2, "image": "sample.png", "position": map[string]any{"x": 100, "y": 100}, "size": map[string]any{"width": 50}}, nil)
	var merged struct{ Pages int }
	e.ok("pdf_merge", map[string]any{"files": []string{"form.pdf", "sample.pdf"}, "output": "all.pdf"}, &merged)
	if merged.Pages != 4 {
		t.Fatalf("merged %d pages", merged.Pages)
	}
	e.ok("pdf_delete_page", map[string]any{"file": "all.pdf", "page": 1}, nil)
	var parts struct{ Files []struct{ Name string } }
	e.ok("pdf_split_pages", map[string]any{"file": "all.pdf", "ranges": []string{"1", "2-"}}, &parts)
	if len(parts.Files) != 2 || parts.Files[1].Name != "all-p2-3.pdf" {
		t.Fatalf("parts %+v", parts)
	}
	var text struct{ Pages []struct{ Text string } }
	e.ok("pdf_extract_text", map[string]any{"file": "sample.pdf", "pages": []int{1}}, &text)
	if len(text.Pages) != 1 || text.Pages[0].Text == "" {
		t.Fatalf("text %+v", text)
	}
	if msg := e.refused("pdf_fill_form", map[string]any{"file": "form.pdf", "fields": map[string]any{"nmae": "x"}}); !strings.Contains(msg, "full_name") {
		t.Errorf("an unknown field: %s", msg)
	}
}

// TestImageTools calls every image_* tool.
func TestImageTools(t *testing.T) {
	e := newEnv(t, "fmt")
	upload(t, e, "fmt", "sample.png", "sample.jpg")
	var info struct{ Width, Height int }
	e.ok("image_info", map[string]any{"file": "sample.png"}, &info)
	var r struct {
		Name          string
		Width, Height int
	}
	e.ok("image_resize", map[string]any{"file": "sample.png", "width": info.Width / 2}, &r)
	if r.Width != info.Width/2 {
		t.Fatalf("resized %+v", r)
	}
	e.ok("image_crop", map[string]any{"file": "sample.png", "region": map[string]any{"left": 1, "top": 1, "width": 10, "height": 5}}, &r)
	if r.Width != 10 || r.Height != 5 {
		t.Fatalf("cropped %+v", r)
	}
	e.ok("image_convert", map[string]any{"file": "sample.jpg", "format": "png"}, &r)
	if r.Name != "sample-2.png" { // a default name never replaces the uploaded sample.png
		t.Fatalf("converted to %s", r.Name)
	}
	e.ok("image_composite", map[string]any{"file": "sample.jpg", "overlays": []any{map[string]any{"image": "sample-crop-10x5.png", "left": 2, "top": 2}}, "output": "c.jpg"}, &r)
	if r.Name != "c.jpg" {
		t.Fatalf("composite %+v", r)
	}
	res := e.call("image_to_base64", map[string]any{"file": "c.jpg", "max_width": 16})
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("to_base64: %s", text(res))
	}
	img, ok := res.Content[0].(*sdk.ImageContent)
	if !ok || img.MIMEType != "image/jpeg" {
		t.Fatalf("to_base64 answered %T", res.Content[0])
	}
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data)); err != nil || cfg.Width != 16 {
		t.Fatalf("the image sent is %d wide (%v)", cfg.Width, err)
	}
	if msg := e.refused("image_resize", map[string]any{"file": "sample.png", "width": 8, "output": "../x.png"}); !strings.Contains(msg, "..") {
		t.Errorf("a hostile output: %s", msg)
	}
}
