// Package samples gives tests the sample files kept in content/testdata,
// and builds the generated ones the same way everywhere: a PDF of text
// lines is written by TextPDF for content/testdata/gen.go and for the
// benchmarks alike, object by object, so no PDF writer is under test.
//
// It must never import another convfiles package.
package samples

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir is the absolute path of content/testdata.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "content", "testdata")
}

// Path is the absolute path of a sample, which must exist.
func Path(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(Dir(), name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Read returns a sample's bytes.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TextPDF builds a PDF of US Letter pages, each with its lines of text in
// Helvetica of the given size from the top left margin down, with a
// correct cross-reference table.
func TextPDF(pages [][]string, size float64) []byte {
	var objs []string
	var kids strings.Builder
	for i := range pages {
		fmt.Fprintf(&kids, "%d 0 R ", 4+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), len(pages)),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i, lines := range pages {
		var s strings.Builder
		fmt.Fprintf(&s, "BT /F1 %g Tf 72 720 Td", size)
		for l, line := range lines {
			if l > 0 {
				fmt.Fprintf(&s, " 0 %g Td", -size*1.2)
			}
			fmt.Fprintf(&s, " (%s) Tj", pdfEscaper.Replace(line))
		}
		s.WriteString(" ET")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String()))
	}
	return RawPDF(objs)
}

// RawPDF assembles a PDF from its objects' text (numbered from 1, the
// first the catalog), with a correct cross-reference table.
func RawPDF(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// pdfEscaper escapes what ends or escapes a PDF string literal.
var pdfEscaper = strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
