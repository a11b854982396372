//go:build ignore

// gen writes the sample files the content tests read: real PNG, JPEG and GIF
// images from the standard library's encoders, and a two-page PDF with text
// built by samples.TextPDF with a correct cross-reference table, plus damaged
// copies. Run it in this folder: cd content/testdata && go run gen.go
package main

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"

	"convfiles/internal/samples"
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
	pdf := samples.TextPDF([][]string{{"Hello from convfiles page one"}, {"Quarterly totals on page two"}}, 18)
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
