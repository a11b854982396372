package content

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"
)

// MaxPDFText caps the text extracted from one PDF, so a huge document cannot
// flood an agent's context or the server's memory.
const MaxPDFText = 8 << 20

// PDFPage is the text of one page of a PDF.
type PDFPage struct {
	Page int    `json:"page"`
	Text string `json:"text"`
	// Error says why a page's text could not be read; the other pages
	// are still given.
	Error string `json:"error,omitempty"`
}

// PDFText is the text read from a PDF, page by page.
type PDFText struct {
	Pages     []PDFPage `json:"pages"`
	PageCount int       `json:"page_count"`
	Truncated bool      `json:"truncated,omitempty"` // MaxPDFText was reached
}

// ReadPDFText returns the text of the pages asked for (all when pages is
// empty), in reading order by rows, up to MaxPDFText bytes in all. A
// document with more than maxPages pages is refused before it is read.
// The extraction library panics on some damaged files: a damaged document
// is a refusal and a damaged page an error on that page, never a crash.
func ReadPDFText(ctx context.Context, data []byte, pages []int, maxPages int) (PDFText, error) {
	var r *pdf.Reader
	count := 0
	err := Guard("the PDF", func() (err error) {
		if err := checkXrefClaims(data, int64(len(data))+1024); err != nil {
			return err
		}
		if r, err = pdf.NewReader(bytes.NewReader(data), int64(len(data))); err == nil {
			count = r.NumPage()
			if count <= maxPages {
				err = checkPageTree(r, 2*maxPages+64)
			}
		}
		return err
	})
	switch {
	case err != nil && strings.Contains(err.Error(), "encrypt"):
		return PDFText{}, Refuse(ErrUnsupported, "the PDF is encrypted: convfiles reads only PDFs without a password")
	case err != nil:
		if _, ok := err.(*Refusal); ok {
			return PDFText{}, err
		}
		return PDFText{}, Refuse(ErrDamaged, "the PDF is damaged and its text cannot be read (%v)", err)
	case count > maxPages:
		return PDFText{}, Refuse(ErrTooLarge, "the PDF has %d pages, more than the %d convfiles works on", count, maxPages)
	}
	if len(pages) == 0 {
		for p := 1; p <= count; p++ {
			pages = append(pages, p)
		}
	}
	for _, p := range pages {
		if p < 1 || p > count {
			return PDFText{}, Refuse(ErrBadRequest, "page %d does not exist: the document has pages 1 to %d", p, count)
		}
	}
	out := PDFText{PageCount: count, Pages: make([]PDFPage, 0, len(pages))}
	total := 0
	budget := &decodedBudget{left: MaxPDFDecoded}
	for _, p := range pages {
		if err := ctx.Err(); err != nil {
			return PDFText{}, err
		}
		t, err := pageText(r, p, budget)
		if _, refused := err.(*Refusal); refused {
			return PDFText{}, err
		}
		if total+len(t) > MaxPDFText {
			out.Truncated = true
			break
		}
		total += len(t)
		pt := PDFPage{Page: p, Text: t}
		if err != nil {
			pt.Error = err.Error()
		}
		out.Pages = append(out.Pages, pt)
	}
	return out, nil
}

// extractPDF returns a PDF's page count and text for Parse, and why text
// is missing when it is.
func extractPDF(data []byte) (pages int, text, errMsg string) {
	t, err := ReadPDFText(context.Background(), data, nil, 1<<20)
	if err != nil {
		return 0, "", err.Error()
	}
	var b strings.Builder
	for _, p := range t.Pages {
		if p.Error != "" && errMsg == "" {
			errMsg = p.Error
		}
		if b.Len() > 0 && p.Text != "" {
			b.WriteString("\n\n")
		}
		b.WriteString(p.Text)
	}
	return t.PageCount, b.String(), errMsg
}

// pageText reads one page's text in reading order; the reader panics on some
// damaged pages, which become an error for that page alone.
func pageText(r *pdf.Reader, n int, budget *decodedBudget) (s string, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("page %d is damaged (%v)", n, rec)
		}
	}()
	p := r.Page(n)
	if p.V.IsNull() {
		return "", nil
	}
	if err := budget.charge(p); err != nil {
		return "", err
	}
	glyphs, err := pageGlyphs(p, budget)
	if _, refused := err.(*Refusal); refused {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("page %d: %v", n, err)
	}
	return readingOrder(glyphs), nil
}
