//go:build ignore

// gen writes the sample files the content tests read: real PNG, JPEG and GIF
// images from the standard library's encoders, and a two-page PDF with text
// built object by object with a correct cross-reference table, plus damaged
// copies. Run it with: go run testdata/gen.go (from the content folder).
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
)

func main() {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 4), uint8(y * 5), 128, 255})
		}
	}
	write("sample.png", func(b *bytes.Buffer) error { return png.Encode(b, img) })
	write("sample.jpg", func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) })
	write("sample.gif", func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) })
	pdf := buildPDF([]string{"Hello from convfiles page one", "Quarterly totals on page two"})
	os.WriteFile("sample.pdf", pdf, 0o644)
	os.WriteFile("truncated.pdf", pdf[:len(pdf)/2], 0o644)
	broken := bytes.Replace(pdf, []byte("/Pages 2 0 R"), []byte("/Pages 9 0 R"), 1)
	os.WriteFile("broken-xref.pdf", broken, 0o644)
}

func write(name string, enc func(*bytes.Buffer) error) {
	var b bytes.Buffer
	if err := enc(&b); err != nil {
		panic(err)
	}
	os.WriteFile(name, b.Bytes(), 0o644)
}

func buildPDF(pages []string) []byte {
	var objs []string
	n := len(pages)
	kids := ""
	for i := range pages {
		kids += fmt.Sprintf("%d 0 R ", 4+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>")
	objs = append(objs, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, n))
	objs = append(objs, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i, text := range pages {
		stream := fmt.Sprintf("BT /F1 18 Tf 72 720 Td (%s) Tj ET", text)
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		objs = append(objs, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream))
	}
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
