package js

import (
	"strings"
	"testing"

	"convfiles/internal/storetest"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// upload copies content samples into conversation conv.
func upload(e *runtimetest.Env, conv string, names ...string) {
	e.T.Helper()
	storetest.PutSamples(e.T, e.Store, conv, names...)
}

// TestFormatHelpers: the format namespaces take seed 004's positional
// arguments and camelCase options, answer in camelCase, report the files
// they write, and throw errors that say what was wrong.
func TestFormatHelpers(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	upload(e, "fmt", "budget.xlsx", "form.pdf", "sample.png")
	var got struct {
		Summary struct {
			Rows    int
			Headers []string
			Top     []struct{ Row int }
		}
		Cell struct {
			Value  float64
			Format struct{ NumberFormat string }
		}
		Text  string
		Pages int
		Shot  struct {
			Width, Height int
			MimeType      string
		}
		Unknown string
		Typed   string
		Missing string
	}
	rep := e.OK("fmt", `
files.spreadsheet.setFormat("budget.xlsx", "Budget", "D2:D5", {numberFormat: "$#,##0.00"});
const summary = files.spreadsheet.getSheetSummary("budget.xlsx", "Budget", {samples: 2});
const cell = files.spreadsheet.readCell("budget.xlsx", "Budget", "D5");
files.pdf.fillForm("form.pdf", {full_name: "Ada"});
const pages = files.pdf.addPage("form.pdf", {size: "Letter"}).pages;
const text = files.pdf.extractText("form.pdf", {pages: [1]}).pages[0].text;
const shot = files.image.toBase64("sample.png", {maxWidth: 16});
let unknown = ""; try { files.image.toBase64("sample.png", {maxWidht: 16}) } catch (e) { unknown = e.message }
let typed = ""; try { files.pdf.deletePage("form.pdf", "two") } catch (e) { typed = e.message }
let missing = ""; try { files.spreadsheet.listSheets("nope.xlsx") } catch (e) { missing = e.name }
({summary, cell, text, pages, shot, unknown, typed, missing})`, &got)
	if got.Summary.Rows != 5 || got.Summary.Headers[3] != "Total" || len(got.Summary.Top) != 2 || got.Summary.Top[0].Row != 2 {
		t.Errorf("summary %+v", got.Summary)
	}
	if got.Cell.Value != 90 || got.Cell.Format.NumberFormat != "$#,##0.00" {
		t.Errorf("cell %+v", got.Cell)
	}
	if got.Pages != 2 || !strings.Contains(got.Text, "Membership application") {
		t.Errorf("pdf: %d pages, text %q", got.Pages, got.Text)
	}
	if got.Shot.Width != 16 || got.Shot.MimeType != "image/png" {
		t.Errorf("toBase64 %+v", got.Shot)
	}
	if !strings.Contains(got.Unknown, `no parameter "maxWidht": the parameters are file, maxWidth`) || !strings.Contains(got.Typed, "page must be a whole number, not a string") || got.Missing != "FileNotFoundError" {
		t.Errorf("errors: %q / %q / %q", got.Unknown, got.Typed, got.Missing)
	}
	var touched []string
	for _, f := range rep.FilesTouched {
		touched = append(touched, f.Name)
	}
	if strings.Join(touched, ",") != "budget.xlsx,form.pdf" {
		t.Errorf("files_touched %v", touched)
	}
}
