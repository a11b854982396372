package pdfs

import (
	"bytes"
	"fmt"
	"io"

	"convfiles/content"
)

// MaxBlankPages is the most pages Blank makes at once.
const MaxBlankPages = 1000

// Blank writes a new document of pages blank pages (one when 0) of the
// size and orientation o asks for (o.After is not used): the start of a
// report that AddText, AddImage and AddPage then fill.
func Blank(o PageOptions, pages int, w io.Writer) error {
	switch {
	case pages == 0:
		pages = 1
	case pages < 0 || pages > MaxBlankPages:
		return content.Refuse(content.ErrBadRequest, "a new document has 1 to %d pages, not %d", MaxBlankPages, pages)
	}
	dim, err := pageDim(o)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	offsets := make([]int, 0, pages+2)
	object := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	object("<< /Type /Catalog /Pages 2 0 R >>")
	kids := bytes.NewBufferString("[")
	for i := range pages {
		fmt.Fprintf(kids, " %d 0 R", i+3)
	}
	kids.WriteString(" ]")
	object(fmt.Sprintf("<< /Type /Pages /Kids %s /Count %d >>", kids, pages))
	for range pages {
		object(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << >> >>", dim.Width, dim.Height))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	_, err = w.Write(b.Bytes())
	return err
}
