// Package reports makes a PDF from Markdown: headings, paragraphs with
// emphasis, code and links, lists, tables, code blocks, quotes and images
// (files of the conversation, charts included), with a page size,
// margins and a title. goldmark parses the Markdown; fpdf writes the PDF
// with the embedded Liberation fonts, so every letter of the text is real
// text, extractable in reading order. Raw HTML is written as text.
package reports

import (
	"bytes"
	"fmt"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationmonoregular"
	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansbolditalic"
	"codeberg.org/go-fonts/liberation/liberationsansitalic"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Bounds of a report.
const (
	MaxMarkdown = 4 << 20 // bytes of Markdown
	MaxPages    = 500
	MaxImages   = 50
)

// Options shape the document.
type Options struct {
	Title       string  `json:"title,omitempty"`       // the document's title: its first heading and its metadata
	PageSize    string  `json:"page_size,omitempty"`   // A4 (default), A3, A5, Letter, Legal
	Orientation string  `json:"orientation,omitempty"` // portrait (default) or landscape
	Margin      float64 `json:"margin,omitempty"`      // points on every side: 56 (about 2 cm) by default
}

// Image reads an image a report shows: a PNG or JPEG, by the link the
// Markdown gives it.
type Image func(src string) ([]byte, error)

// pageSizes are the sizes a report may have.
var pageSizes = map[string]string{"a4": "A4", "a3": "A3", "a5": "A5", "letter": "Letter", "legal": "Legal"}

// Render makes the PDF of markdown, reading its images through image.
func Render(markdown []byte, o Options, image Image) ([]byte, int, error) {
	if len(markdown) > MaxMarkdown {
		return nil, 0, fmt.Errorf("the Markdown is %d bytes; a report is made from at most %d", len(markdown), MaxMarkdown)
	}
	size, ok := pageSizes[strings.ToLower(cmpOr(o.PageSize, "a4"))]
	if !ok {
		return nil, 0, fmt.Errorf("page_size %q is not one of A4, A3, A5, Letter, Legal", o.PageSize)
	}
	orient := map[string]string{"": "P", "portrait": "P", "landscape": "L"}[strings.ToLower(o.Orientation)]
	if orient == "" {
		return nil, 0, fmt.Errorf("orientation is portrait or landscape, not %q", o.Orientation)
	}
	margin := o.Margin
	if margin == 0 {
		margin = 56
	}
	if margin < 18 || margin > 144 {
		return nil, 0, fmt.Errorf("margin is 18 to 144 points, not %v", o.Margin)
	}
	pdf := fpdf.New(orient, "pt", size, "")
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(true, margin)
	for _, f := range []struct {
		family, style string
		ttf           []byte
	}{{"sans", "", liberationsansregular.TTF}, {"sans", "B", liberationsansbold.TTF}, {"sans", "I", liberationsansitalic.TTF},
		{"sans", "BI", liberationsansbolditalic.TTF}, {"mono", "", liberationmonoregular.TTF}} {
		pdf.AddUTF8FontFromBytes(f.family, f.style, f.ttf)
	}
	pdf.SetCreator("convfiles", true)
	if o.Title != "" {
		pdf.SetTitle(o.Title, true)
	}
	pdf.AddPage()
	w := &writer{pdf: pdf, image: image, source: markdown}
	if o.Title != "" {
		w.heading(0, o.Title)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	doc := md.Parser().Parse(text.NewReader(markdown))
	if err := w.blocks(doc); err != nil {
		return nil, 0, err
	}
	if err := pdf.Error(); err != nil {
		return nil, 0, fmt.Errorf("the PDF could not be made: %v", err)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), pdf.PageNo(), nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
