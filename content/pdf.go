package content

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"
)

// MaxPDFText caps the text extracted from one PDF, so a huge document cannot
// flood an agent's context or the server's memory.
const MaxPDFText = 8 << 20

// extractPDF returns a PDF's page count and text. The extraction library
// panics on some malformed files; a damaged PDF yields an error message,
// never a crash.
func extractPDF(data []byte) (pages int, text, errMsg string) {
	defer func() {
		if r := recover(); r != nil {
			errMsg = fmt.Sprintf("the PDF is damaged (%v)", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, "", "the PDF is damaged (" + err.Error() + ")"
	}
	pages = r.NumPage()
	var b strings.Builder
	for i := 1; i <= pages && b.Len() < MaxPDFText; i++ {
		t, err := pageText(r.Page(i))
		if err != nil {
			errMsg = fmt.Sprintf("page %d: %v", i, err)
			continue
		}
		if b.Len() > 0 && t != "" {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
	}
	text = b.String()
	if len(text) > MaxPDFText {
		text = text[:MaxPDFText]
	}
	return pages, text, errMsg
}

func pageText(p pdf.Page) (s string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unreadable page (%v)", r)
		}
	}()
	if p.V.IsNull() {
		return "", nil
	}
	rows, err := p.GetTextByRow()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, row := range rows {
		for _, w := range row.Content {
			b.WriteString(w.S)
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n"), nil
}
