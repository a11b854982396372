package pdfs

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"convfiles/content"
)

// PageOptions shape a page AddPage adds.
type PageOptions struct {
	Size        string `json:"size,omitempty"`        // A4 (default), A3, A5, Letter, Legal, Tabloid, …
	Orientation string `json:"orientation,omitempty"` // portrait (default) or landscape
	After       int    `json:"after,omitempty"`       // the page it follows; 0 is after the last
}

// AddPage adds a blank page and returns the new page count.
func AddPage(data []byte, o PageOptions, w io.Writer) (int, error) {
	ctx, conf, err := parse(data, model.INSERTPAGESAFTER, true)
	if err != nil {
		return 0, err
	}
	n := ctx.PageCount
	after := o.After
	if after == 0 {
		after = n
	}
	if err := pageList([]int{after}, n); err != nil {
		return 0, err
	}
	dim, err := pageDim(o)
	if err != nil {
		return 0, err
	}
	err = run("the PDF", func() error { return ctx.InsertBlankPages(types.IntSet{after: true}, &dim, false) })
	if err != nil {
		return 0, err
	}
	return n + 1, write(ctx, conf, w)
}

// pageDim is the size of the page o asks for, in points. (A function, not
// a method: argument structs embed PageOptions, and reflect.StructOf
// cannot build a struct embedding a type with methods.)
func pageDim(o PageOptions) (types.Dim, error) {
	size := o.Size
	if size == "" {
		size = "A4"
	}
	dim, ok := paperSize(size)
	if !ok {
		return dim, content.Refuse(content.ErrBadRequest, "unknown page size %q: use A0–A8, Letter, Legal, Ledger, Tabloid or Executive", size)
	}
	switch strings.ToLower(o.Orientation) {
	case "", "portrait":
		if dim.Width > dim.Height {
			dim.Width, dim.Height = dim.Height, dim.Width
		}
	case "landscape":
		if dim.Width < dim.Height {
			dim.Width, dim.Height = dim.Height, dim.Width
		}
	default:
		return dim, content.Refuse(content.ErrBadRequest, "unknown orientation %q: use portrait or landscape", o.Orientation)
	}
	return dim, nil
}

func paperSize(name string) (types.Dim, bool) {
	for k, d := range types.PaperSize {
		if strings.EqualFold(k, name) && d != nil {
			return *d, true
		}
	}
	return types.Dim{}, false
}

// DeletePage removes one page and returns the new page count; the last
// page stays.
func DeletePage(data []byte, page int, w io.Writer) (int, error) {
	ctx, conf, err := parse(data, model.REMOVEPAGES, true)
	if err != nil {
		return 0, err
	}
	n := ctx.PageCount
	if err := pageList([]int{page}, n); err != nil {
		return 0, err
	}
	if n == 1 {
		return 0, content.Refuse(content.ErrBadRequest, "page 1 is the document's only page: a PDF keeps at least one")
	}
	keep := make([]int, 0, n-1)
	for p := 1; p <= n; p++ {
		if p != page {
			keep = append(keep, p)
		}
	}
	return n - 1, extract(ctx, conf, keep, w)
}

// Merge writes the documents one after the other as one document.
func Merge(docs [][]byte, w io.Writer) (int, error) {
	if len(docs) < 2 {
		return 0, content.Refuse(content.ErrBadRequest, "give at least two PDFs to merge")
	}
	total := 0
	rs := make([]io.ReadSeeker, len(docs))
	for i, d := range docs {
		n, err := PageCount(d)
		if err != nil {
			return 0, content.Refuse(content.ErrDamaged, "PDF %d of the merge: %v", i+1, err)
		}
		total += n
		rs[i] = bytes.NewReader(d)
	}
	if err := checkPages(total); err != nil {
		return 0, err
	}
	err := run("the merge", func() error { return api.MergeRaw(rs, w, false, config()) })
	return total, err
}

// Split writes, for each range ("1-3", "4", "5-"), a document of those
// pages, through open, which returns the writer for part i, pages from to
// to.
func Split(data []byte, ranges []string, open func(i, from, to int) (io.Writer, error)) error {
	ctx, conf, err := parse(data, model.TRIM, true)
	if err != nil {
		return err
	}
	n := ctx.PageCount
	if len(ranges) == 0 {
		return content.Refuse(content.ErrBadRequest, "give the page ranges to split into, like [\"1-3\", \"4-\"]")
	}
	for i, r := range ranges {
		from, to, err := parseRange(r, n)
		if err != nil {
			return err
		}
		w, err := open(i, from, to)
		if err != nil {
			return err
		}
		pages := make([]int, 0, to-from+1)
		for p := from; p <= to; p++ {
			pages = append(pages, p)
		}
		if err := extract(ctx, conf, pages, w); err != nil {
			return err
		}
	}
	return nil
}

// extract writes the pages of a parsed document, in order, as a new one.
func extract(ctx *model.Context, conf *model.Configuration, pages []int, w io.Writer) error {
	return run("the PDF", func() error {
		part, err := pdfcpu.ExtractPages(ctx, pages, false)
		if err != nil {
			return err
		}
		return api.Write(part, w, conf)
	})
}

// parseRange reads "2", "1-3" or "4-" (to the end) against n pages.
func parseRange(r string, n int) (int, int, error) {
	bad := content.Refuse(content.ErrBadRequest, "%q is not a page range of this %d-page document: write \"2\", \"1-3\" or \"4-\" (to the end)", r, n)
	s := strings.TrimSpace(r)
	a, b, isRange := strings.Cut(s, "-")
	var from, to int
	if _, err := fmt.Sscan(a, &from); err != nil {
		return 0, 0, bad
	}
	to = from
	if isRange {
		to = n
		if strings.TrimSpace(b) != "" {
			if _, err := fmt.Sscan(b, &to); err != nil {
				return 0, 0, bad
			}
		}
	}
	if from < 1 || to > n || from > to {
		return 0, 0, bad
	}
	return from, to, nil
}

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
