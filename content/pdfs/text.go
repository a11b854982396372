package pdfs

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"

	"convfiles/content"
)

// MaxText caps the text ExtractText returns from one call.
const MaxText = 8 << 20

// PageText is one page's text.
type PageText struct {
	Page int    `json:"page"`
	Text string `json:"text"`
	// Error says why a page's text could not be read; the other pages
	// are still given.
	Error string `json:"error,omitempty"`
}

// Text is what ExtractText returns.
type Text struct {
	Pages     []PageText `json:"pages"`
	PageCount int        `json:"page_count"`
	Truncated bool       `json:"truncated,omitempty"` // MaxText was reached
}

// ExtractText returns the text of the pages asked for (all when pages is
// empty), page by page, in reading order by rows.
func ExtractText(ctx context.Context, data []byte, pages []int) (Text, error) {
	var r *pdf.Reader
	err := content.Guard("the PDF", func() (err error) {
		r, err = pdf.NewReader(bytes.NewReader(data), int64(len(data)))
		return err
	})
	if err != nil {
		if _, ok := err.(*content.Refusal); ok {
			return Text{}, err
		}
		if strings.Contains(err.Error(), "encrypt") {
			return Text{}, content.Refuse(content.ErrUnsupported, "the PDF is encrypted: convfiles reads only PDFs without a password")
		}
		return Text{}, content.Refuse(content.ErrDamaged, "the PDF is damaged and its text cannot be read (%v)", err)
	}
	var count int
	if err := content.Guard("the PDF", func() error { count = r.NumPage(); return nil }); err != nil {
		return Text{}, err
	}
	if err := checkPages(count); err != nil {
		return Text{}, err
	}
	if len(pages) == 0 {
		for p := 1; p <= count; p++ {
			pages = append(pages, p)
		}
	}
	if err := pageList(pages, count); err != nil {
		return Text{}, err
	}
	out := Text{PageCount: count, Pages: make([]PageText, 0, len(pages))}
	total := 0
	for _, p := range pages {
		if err := ctx.Err(); err != nil {
			return Text{}, err
		}
		t, err := pageText(r, p)
		pt := PageText{Page: p, Text: t}
		if err != nil {
			pt.Error = err.Error()
		}
		if total+len(t) > MaxText {
			out.Truncated = true
			break
		}
		total += len(t)
		out.Pages = append(out.Pages, pt)
	}
	return out, nil
}

// pageText reads one page's text, row by row; the reader panics on some
// damaged pages, which become an error for that page alone.
func pageText(r *pdf.Reader, n int) (s string, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("page %d is damaged (%v)", n, rec)
		}
	}()
	p := r.Page(n)
	if p.V.IsNull() {
		return "", nil
	}
	rows, err := p.GetTextByRow()
	if err != nil {
		return "", fmt.Errorf("page %d: %v", n, err)
	}
	var b strings.Builder
	for _, row := range rows {
		for i, w := range row.Content {
			if i > 0 && needsSpace(row.Content[i-1], w) {
				b.WriteByte(' ')
			}
			b.WriteString(w.S)
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// needsSpace tells whether two runs of text on a row stand apart: a gap
// wider than a fifth of the font size between them.
func needsSpace(a, b pdf.Text) bool {
	if strings.HasSuffix(a.S, " ") || strings.HasPrefix(b.S, " ") {
		return false
	}
	end := a.X + a.W
	return b.X-end > a.FontSize*0.2
}
