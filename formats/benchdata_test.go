package formats_test

import (
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"

	"convfiles/internal/samples"
)

// benchInput returns the path of a generated benchmark input, made once
// and kept in the temporary folder across runs (the 200,000-row workbook
// takes seconds to write). make writes the file at the path it is given.
func benchInput(b *testing.B, name string, make func(path string) error) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "convfiles-bench-v2")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	final := filepath.Join(dir, name)
	if _, err := os.Stat(final); err == nil {
		return final
	}
	tmp := filepath.Join(dir, fmt.Sprintf("tmp-%d-%s", os.Getpid(), name))
	if err := make(tmp); err != nil {
		os.Remove(tmp)
		b.Fatal(err)
	}
	if err := os.Rename(tmp, final); err != nil {
		b.Fatal(err)
	}
	return final
}

// writeWorkbook writes an XLSX whose one sheet has a header row and rows
// of orders: an ID, a date, a customer, a region, a quantity, a price and
// a note, as a sales export has.
func writeWorkbook(path string, rows int) error {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	header := []any{"order", "date", "customer", "region", "quantity", "price", "note"}
	if err := sw.SetRow("A1", header); err != nil {
		return err
	}
	regions := []string{"north", "south", "east", "west"}
	for i := 1; i <= rows; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		row := []any{i, fmt.Sprintf("2026-%02d-%02d", i%12+1, i%28+1), fmt.Sprintf("customer %d", i%5000),
			regions[i%4], i % 97, float64(i%1000) / 4, fmt.Sprintf("delivered by courier %d", i%31)}
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// writeTextPDF writes a PDF of the given number of pages, each with 45
// lines of text, as a report has.
func writeTextPDF(path string, pages int) error {
	text := make([][]string, pages)
	for p := range text {
		for l := range 45 {
			text[p] = append(text[p], fmt.Sprintf("Page %d, line %d: the quarterly figures for region %d are within the plan.", p+1, l+1, l%4))
		}
	}
	return os.WriteFile(path, samples.TextPDF(text, 10), 0o644)
}

// writePhoto writes a JPEG of the given size with gradients and detail, as
// a camera's photo has (a flat image would compress to nothing).
func writePhoto(path string, w, h int) error {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for y := range h {
		for x := range w {
			img.Y[img.YOffset(x, y)] = uint8((x*7 + y*3 + (x*y)%23) % 256)
		}
	}
	for y := range h / 2 {
		for x := range w / 2 {
			i := img.COffset(2*x, 2*y)
			img.Cb[i], img.Cr[i] = uint8(x%256), uint8(y%256)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 85}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
