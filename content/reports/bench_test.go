package reports

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkRenderTypical makes a typical report: a title, three sections
// of paragraphs, a 20-row table, a list, a code block and a chart image.
func BenchmarkRenderTypical(b *testing.B) {
	chart, err := os.ReadFile("../charts/testdata/golden/bar.png")
	if err != nil {
		b.Fatal(err)
	}
	var md strings.Builder
	for s := 1; s <= 3; s++ {
		md.WriteString("## Section\n\n" + strings.Repeat("Revenue **grew** in *every* region, as the table shows. ", 12) + "\n\n")
	}
	md.WriteString("| Month | North | South |\n|---|---:|---:|\n")
	for i := 1; i <= 20; i++ {
		md.WriteString("| 2026-01 | 120 | 95 |\n")
	}
	md.WriteString("\n- one\n- two\n- three\n\n```\ntotal = north + south\n```\n\n![Sales](chart.png)\n")
	image := func(string) ([]byte, error) { return chart, nil }
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Render([]byte(md.String()), Options{Title: "Q1"}, image); err != nil {
			b.Fatal(err)
		}
	}
}
