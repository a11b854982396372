package formats_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/ops"
)

// call runs the operation named with args (JSON) on e's conversation,
// as every door does.
func call(t *testing.T, e formats.Env, name, args string) (any, error) {
	t.Helper()
	op, ok := ops.Lookup(name)
	if !ok {
		t.Fatalf("no operation %s", name)
	}
	return op.Call(auth.NewContext(ctx, auth.Local), ops.Env{Space: e.Space, Write: e.Write}, json.RawMessage(args))
}

// must runs what call runs and fails the test on an error.
func must(t *testing.T, e formats.Env, name, args string) {
	t.Helper()
	if _, err := call(t, e, name, args); err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
}

// with is the JSON object args with key set to value.
func with(args, key, value string) string {
	m := map[string]any{}
	json.Unmarshal([]byte(args), &m)
	m[key] = value
	b, _ := json.Marshal(m)
	return string(b)
}

// TestDocumentsFromNothing: pdf.create and spreadsheet.create, and
// file_create of a .pdf, .xlsx or .csv without content, make documents
// every format operation then takes; a taken name is a conflict.
func TestDocumentsFromNothing(t *testing.T) {
	e := env(t, "sample.png")
	must(t, e, "pdf_create", `{"file": "report.pdf", "size": "Letter", "orientation": "landscape", "pages": 2}`)
	must(t, e, "create", `{"name": "blank.pdf"}`)
	must(t, e, "create", `{"name": "memo", "mime_type": "application/pdf"}`)
	for _, doc := range []string{"report.pdf", "blank.pdf", "memo"} {
		for _, c := range []struct{ op, args string }{
			{"pdf_info", `{}`}, {"pdf_add_text", `{"page": 1, "text": "Quarterly report", "position": {"x": 72, "y": 500}}`},
			{"pdf_add_image", `{"page": 1, "image": "sample.png", "position": {"x": 72, "y": 300}}`}, {"pdf_add_page", `{}`},
			{"pdf_delete_page", `{"page": 2}`}, {"pdf_get_form_fields", `{}`}, {"pdf_split_pages", `{"ranges": ["1"]}`},
		} {
			must(t, e, c.op, with(c.args, "file", doc))
		}
		out, err := call(t, e, "pdf_extract_text", `{"file": "`+doc+`"}`)
		if b, _ := json.Marshal(out); err != nil || !strings.Contains(string(b), "Quarterly report") {
			t.Errorf("%s after addText: %s %v", doc, b, err)
		}
	}
	must(t, e, "pdf_merge", `{"files": ["report.pdf", "blank.pdf"], "output": "both.pdf"}`)

	must(t, e, "spreadsheet_create", `{"file": "book.xlsx", "sheets": ["Sales", "Costs"], "headers": ["month", "total"]}`)
	must(t, e, "create", `{"name": "plain.xlsx"}`)
	for _, book := range []string{"book.xlsx", "plain.xlsx"} {
		sheet := map[string]string{"book.xlsx": "Sales", "plain.xlsx": "Sheet1"}[book]
		for _, c := range []struct{ op, args string }{
			{"spreadsheet_list_sheets", `{}`}, {"spreadsheet_get_sheet_summary", `{}`}, {"spreadsheet_write_range", `{"start": "A2", "values": [["jan", 3]]}`},
			{"spreadsheet_read_range", `{"range": "A1:B2"}`}, {"spreadsheet_write_cell", `{"cell": "C1", "value": "note"}`},
			{"spreadsheet_read_cell", `{"cell": "C1"}`}, {"spreadsheet_insert_rows", `{"at": 1, "count": 1}`},
			{"spreadsheet_delete_rows", `{"at": 2, "count": 1}`}, {"spreadsheet_set_format", `{"range": "A1:C1", "format": {"bold": true}}`},
			{"spreadsheet_auto_filter", `{"range": "A1:C2"}`}, {"spreadsheet_add_sheet", `{"name": "More"}`}, {"spreadsheet_delete_sheet", `{"name": "More"}`},
		} {
			args := with(c.args, "file", book)
			if op, _ := ops.Lookup(c.op); slices.Contains(op.Params, "sheet") {
				args = with(args, "sheet", sheet)
			}
			must(t, e, c.op, args)
		}
	}
	out, _ := call(t, e, "spreadsheet_read_range", `{"file": "book.xlsx", "sheet": "Costs", "range": "A1:B1"}`)
	if b, _ := json.Marshal(out); !strings.Contains(string(b), `["month","total"]`) {
		t.Errorf("the headers of every sheet: %s", b)
	}

	must(t, e, "spreadsheet_create", `{"file": "log.csv", "headers": ["when", "what"]}`)
	must(t, e, "create", `{"name": "empty.csv"}`)
	for _, csv := range []string{"log.csv", "empty.csv"} {
		for _, op := range []string{"spreadsheet_list_sheets", "spreadsheet_get_sheet_summary"} {
			must(t, e, op, `{"file": "`+csv+`"}`)
		}
		must(t, e, "spreadsheet_read_range", `{"file": "`+csv+`", "range": "A1:B2"}`)
	}

	for _, c := range []struct{ op, args, want string }{
		{"pdf_create", `{"file": "report.pdf"}`, "exists"},
		{"spreadsheet_create", `{"file": "book.xlsx"}`, "exists"},
		{"pdf_create", `{"file": "x.pdf", "pages": 1001}`, "1 to 1000 pages"},
		{"pdf_create", `{"file": "x.pdf", "size": "B99"}`, "unknown page size"},
		{"spreadsheet_create", `{"file": "x.csv", "sheets": ["a"]}`, "one sheet"},
		{"create", `{"name": "notes.txt", "content": "hello", "mime_type": "application/pdf"}`, "does not match"},
	} {
		if _, err := call(t, e, c.op, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.op, c.args, err, c.want)
		}
	}
	must(t, e, "create", `{"name": "data.csv", "content": "a,b\n", "mime_type": "text/csv"}`)
	long := strings.Repeat("a long note, ", 2000) // past the sniffed head: the type is the head's, as the index has it
	must(t, e, "create", `{"name": "long.txt", "content": "`+long+`", "mime_type": "text/plain"}`)
	if _, err := call(t, e, "create", `{"name": "fake.txt", "content": "%PDF-1.4 `+long+`", "mime_type": "text/plain"}`); err == nil || !strings.Contains(err.Error(), "application/pdf") {
		t.Errorf("a PDF head declared text/plain: %v", err)
	}
	if rec, err := e.Space.Record(ctx, "memo"); err != nil || rec.MIME != "application/pdf" {
		t.Errorf("memo, declared a PDF: %+v %v", rec, err)
	}
}

// TestEditingAMissingPDFSaysHowToStartOne: pdf.addPage on a name that
// does not exist points to pdf.create.
func TestEditingAMissingPDFSaysHowToStartOne(t *testing.T) {
	e := env(t)
	_, err := call(t, e, "pdf_add_page", `{"file": "new.pdf"}`)
	if err == nil || !strings.Contains(err.Error(), "pdf_create") || files.KindOf(err) != files.KindNotFound {
		t.Errorf("%v", err)
	}
}
