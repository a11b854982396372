package mcp_test

import (
	"slices"
	"testing"
)

// TestTheMetaclawProfileOffersSeed004sTools: --tools metaclaw lists
// exactly the tools of seed 004, by its names.
func TestTheMetaclawProfileOffersSeed004sTools(t *testing.T) {
	names, _, _ := toolList(t, "", "metaclaw")
	want := []string{"file_create", "file_delete", "file_download", "file_info", "file_list", "file_read_text", "file_replace_lines", "file_write_text",
		"image_composite", "image_convert", "image_crop", "image_info", "image_resize", "image_to_base64",
		"pdf_add_image", "pdf_add_page", "pdf_add_text", "pdf_delete_page", "pdf_extract_text", "pdf_fill_form", "pdf_get_form_fields",
		"pdf_info", "pdf_merge", "pdf_split_pages",
		"spreadsheet_add_sheet", "spreadsheet_auto_filter", "spreadsheet_delete_rows", "spreadsheet_delete_sheet", "spreadsheet_get_sheet_summary",
		"spreadsheet_insert_rows", "spreadsheet_list_sheets", "spreadsheet_read_cell", "spreadsheet_read_range", "spreadsheet_set_format",
		"spreadsheet_write_cell", "spreadsheet_write_range"}
	if !slices.Equal(names, want) {
		t.Fatalf("the metaclaw tools are %v, want %v", names, want)
	}
}

// TestMetaclawCallsWithItsArgumentNames: seed 004's format calls as its
// clients make them (fileId, startCell, data, afterRow, startRow, pageNum,
// imageFileId, fileIds, outputName, options, camelCase option names) do
// what convfiles' own names do.
func TestMetaclawCallsWithItsArgumentNames(t *testing.T) {
	e := newEnv(t, "mc")
	upload(t, e, "mc", "budget.xlsx", "sample.pdf", "form.pdf", "sample.png")
	e.ok("spreadsheet_write_range", args("fileId", "budget.xlsx", "sheet", "Budget", "startCell", "F1", "data", [][]any{{"seed"}, {4}}), nil)
	var cell struct{ Value any }
	e.ok("spreadsheet_read_cell", args("fileId", "budget.xlsx", "sheet", "Budget", "cell", "F2"), &cell)
	if cell.Value != 4.0 {
		t.Fatalf("F2 after writeRange(fileId, sheet, startCell, data): %v", cell.Value)
	}
	e.ok("spreadsheet_write_cell", args("fileId", "budget.xlsx", "sheet", "Budget", "cell", "G1", "value", 2, "options", map[string]any{"formula": "=F2/2"}), nil)
	e.ok("spreadsheet_insert_rows", args("fileId", "budget.xlsx", "sheet", "Budget", "afterRow", 1, "count", 2), nil)
	e.ok("spreadsheet_read_cell", args("fileId", "budget.xlsx", "sheet", "Budget", "cell", "F4"), &cell)
	if cell.Value != 4.0 {
		t.Fatalf("F4 after two rows inserted after row 1: %v", cell.Value)
	}
	e.ok("spreadsheet_delete_rows", args("fileId", "budget.xlsx", "sheet", "Budget", "startRow", 2, "count", 2), nil)
	e.ok("spreadsheet_set_format", args("fileId", "budget.xlsx", "sheet", "Budget", "range", "A1:B1", "format", map[string]any{"numberFormat": "0.00", "bold": true}), nil)

	var info struct{ Pages int }
	e.ok("pdf_merge", args("fileIds", []string{"sample.pdf", "form.pdf"}, "outputName", "both.pdf"), nil)
	e.ok("pdf_info", args("fileId", "both.pdf"), &info)
	before := info.Pages
	e.ok("pdf_add_image", args("fileId", "both.pdf", "page", 1, "imageFileId", "sample.png", "position", map[string]any{"x": 10, "y": 10}), nil)
	e.ok("pdf_delete_page", args("fileId", "both.pdf", "pageNum", 1), nil)
	e.ok("pdf_info", args("fileId", "both.pdf"), &info)
	if before < 2 || info.Pages != before-1 {
		t.Fatalf("pages %d, then %d after deletePage(fileId, pageNum)", before, info.Pages)
	}
	var extracted struct{ Pages []struct{ Page int } }
	e.ok("pdf_extract_text", args("fileId", "sample.pdf", "options", map[string]any{"pages": []int{1}}), &extracted)
	if len(extracted.Pages) != 1 || extracted.Pages[0].Page != 1 {
		t.Fatalf("extractText(fileId, {pages: [1]}): %+v", extracted)
	}
	var img struct{ Width, Height int }
	e.ok("image_resize", args("fileId", "sample.png", "width", 8, "height", 8, "options", map[string]any{"fit": "fill", "output": "small.png"}), nil)
	e.ok("image_info", args("fileId", "small.png"), &img)
	if img.Width != 8 || img.Height != 8 {
		t.Fatalf("resize(fileId, 8, 8, {fit: fill}): %+v", img)
	}
	res := e.call("image_to_base64", args("fileId", "sample.png", "options", map[string]any{"maxWidth": 4}))
	if res.IsError {
		t.Fatalf("toBase64(fileId, {maxWidth}): %s", text(res))
	}
	for _, bad := range []map[string]any{
		args("file", "sample.png", "fileId", "sample.png"),
		args("fileId", "sample.png", "max_width", 4, "options", map[string]any{"maxWidth": 4}),
	} {
		if res := e.call("image_to_base64", bad); !res.IsError {
			t.Errorf("%v: one argument named twice was taken", bad)
		}
	}
}
