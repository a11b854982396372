package hostile

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand"

	"convfiles/internal/samples"
)

// The hostile files of the corpus: small files that make a decoder loop,
// inflate or allocate without end. Tests send them through every door.

// CyclicPDF is a PDF of 329 bytes whose page tree is a cycle: each Pages
// node is the other's only kid. A walk of its pages never ends.
func CyclicPDF() []byte {
	return samples.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >>",
	})
}

// FlateBombPDF is a one-page PDF whose content stream inflates to
// inflated bytes of spaces from a few hundred kilobytes.
func FlateBombPDF(inflated int) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for n := 0; n < inflated; n += len(chunk) {
		w.Write(chunk[:min(len(chunk), inflated-n)])
	}
	w.Close()
	return samples.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		fmt.Sprintf("<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
	})
}

// FlateBombFormPDF is a one-page PDF that paints a form XObject times
// and shows an annotation whose appearance is the same stream: a few
// hundred kilobytes that inflate to inflated bytes of spaces each time
// they are read.
func FlateBombFormPDF(inflated, times int) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for n := 0; n < inflated; n += len(chunk) {
		w.Write(chunk[:min(len(chunk), inflated-n)])
	}
	w.Close()
	paint := bytes.Repeat([]byte("/X0 Do\n"), times)
	return samples.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X0 5 0 R >> >> " +
			"/Annots [<< /Type /Annot /Subtype /Stamp /Rect [0 0 100 100] /AP << /N 5 0 R >> >>] >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(paint), paint),
		fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
	})
}

// BigBlankPNG is a valid grey PNG of w×h pixels, all black: a few
// hundred kilobytes that decode to w×h bytes or, in colour, four times that.
func BigBlankPNG(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		binary.Write(&b, binary.BigEndian, c.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 0 // 8-bit greyscale
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, w+1) // filter byte 0, then black pixels
	for y := 0; y < h; y++ {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// SpillingXLSX is a workbook whose directory says its one sheet inflates
// to sheetBytes, padded with a stored part of random bytes so that it
// passes the inflation-ratio check: opened, it would be written out to
// temporary files.
func SpillingXLSX(sheetBytes int64, padding int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	add := func(name, body string) {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	add("[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)
	add("xl/workbook.xml", `<?xml version="1.0"?><workbook/>`)
	h := &zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate, UncompressedSize64: uint64(sheetBytes), CompressedSize64: 2}
	w, _ := zw.CreateRaw(h)
	w.Write([]byte{3, 0})
	pad := make([]byte, padding)
	rand.New(rand.NewSource(1)).Read(pad)
	pw, _ := zw.CreateHeader(&zip.FileHeader{Name: "xl/media/padding.bin", Method: zip.Store})
	pw.Write(pad)
	zw.Close()
	return b.Bytes()
}
