package formats_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/needs"
)

// reportMarkdown is a report with every kind of block and a chart.
const reportMarkdown = `# Quarterly report

Revenue **grew** in *every* region; see the [dashboard](https://example.com/q1) and ` + "`sales.csv`" + `.

## Regions

| Region | Total | Change |
|:-------|------:|-------:|
| North  | 150   | +12%   |
| South  | 110   | +8%    |

- North led the quarter
- South recovered in March
  1. new customers
  2. larger orders

![Sales by month](charts/sales.png)

> Figures are in thousands of euros.

` + "```" + `
total = north + south
` + "```" + `

The end.
`

// TestAMarkdownReportBecomesAPDF renders a report with a table, lists, a
// code block, a quote and a chart, and reads it back: the PDF's text is
// the report's, in reading order, through convfiles' own extractor and
// through poppler's pdftotext.
func TestAMarkdownReportBecomesAPDF(t *testing.T) {
	e := env(t)
	if _, err := e.Space.WriteBytes(ctx, "sales.csv", []byte("month,total\n2026-01,120\n2026-02,135\n2026-03,150\n"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	spec := json.RawMessage(`{"title": "Sales by month", "data": {"url": "sales.csv"}, "mark": "bar",
		"encoding": {"x": {"field": "month", "type": "ordinal"}, "y": {"field": "total", "type": "quantitative"}}}`)
	if _, err := formats.RenderChart(ctx, e, formats.ChartArgs{Spec: spec, Name: "charts/sales.png"}); err != nil {
		t.Fatal(err)
	}
	args := formats.ReportArgs{Markdown: reportMarkdown, Name: "report.pdf"}
	args.Title, args.PageSize = "Q1 2026", "Letter"
	made, err := formats.FromMarkdown(ctx, e, args)
	if err != nil || made.Pages < 1 || made.File.MIME != "application/pdf" {
		t.Fatalf("%+v, %v", made, err)
	}
	text, err := formats.ExtractText(ctx, e, formats.TextArgs{File: "report.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, p := range text.Pages {
		all.WriteString(p.Text + "\n")
	}
	inOrder(t, "convfiles' extractor", all.String())

	pdftotext := needs.Program(t, needs.Poppler, "pdftotext")
	data, _, err := e.Space.ReadFile(ctx, "report.pdf", 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	os.WriteFile(path, data, 0o644)
	out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	inOrder(t, "pdftotext", string(out))
}

// inOrder checks that the report's phrases appear in text in order.
func inOrder(t *testing.T, by, text string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	at := 0
	for _, phrase := range []string{"Q1 2026", "Quarterly report", "Revenue grew in every region; see the dashboard and sales.csv",
		"Regions", "Region Total Change", "North 150 +12%", "South 110 +8%", "North led the quarter", "South recovered in March",
		"1. new customers", "2. larger orders", "Figures are in thousands of euros.", "total = north + south", "The end."} {
		i := strings.Index(flat[at:], phrase)
		if i < 0 {
			t.Errorf("%s: %q is not after position %d of the text:\n%s", by, phrase, at, flat)
			return
		}
		at += i + len(phrase)
	}
}

// TestReportsRefuseWhatTheyCannotShow: an image outside the conversation
// or elsewhere on the web, an image that is not there, a page size and a
// name that are not a report's.
func TestReportsRefuseWhatTheyCannotShow(t *testing.T) {
	e := env(t)
	for _, c := range []struct {
		md, name, size, says string
		kind                 files.Kind
	}{
		{"![x](../../etc/passwd)", "r.pdf", "", "..", files.KindInvalid},
		{"![x](https://example.com/x.png)", "r.pdf", "", "files of the conversation", files.KindInvalid},
		{"![x](missing.png)", "r.pdf", "", "missing.png", files.KindNotFound},
		{"# x", "r.pdf", "B5", "page_size", files.KindInvalid},
		{"# x", "r.docx", "", ".pdf", files.KindInvalid},
	} {
		args := formats.ReportArgs{Markdown: c.md, Name: c.name}
		args.PageSize = c.size
		_, err := formats.FromMarkdown(ctx, e, args)
		if files.KindOf(err) != c.kind || err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s → %s: %v, want %v saying %q", c.md, c.name, err, c.kind, c.says)
		}
	}
}
