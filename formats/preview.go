package formats

import (
	"context"
	"path"
	"strings"
	"unicode/utf8"

	"convfiles/content"
	"convfiles/content/images"
	"convfiles/content/pdfs"
	"convfiles/content/spreadsheet"
	"convfiles/files"
)

// Preview kinds: what a file is shown as beside its bytes.
const (
	PreviewImage       = "image"
	PreviewPDF         = "pdf"
	PreviewSpreadsheet = "spreadsheet"
)

// MaxPreviewText is the most text of a PDF's first page a preview holds.
const MaxPreviewText = 4000

// Preview is what a person looking at a file sees first: an image's size
// and format, a PDF's metadata and the start of its first page, or a
// sheet's size, headers and first and last rows. Exactly one of Image,
// PDF and Spreadsheet is set, the one Kind names.
type Preview struct {
	Kind        string              `json:"kind"`
	Image       *images.Info        `json:"image,omitempty"`
	PDF         *PDFPreview         `json:"pdf,omitempty"`
	Spreadsheet *SpreadsheetPreview `json:"spreadsheet,omitempty"`
}

// PDFPreview is a PDF's metadata and the start of its first page's text.
type PDFPreview struct {
	Info      pdfs.Info `json:"info"`
	FirstPage string    `json:"first_page"`
	Truncated bool      `json:"truncated,omitempty"` // the page has more text than FirstPage
	// TextError says why the first page's text could not be read; the
	// metadata is still given.
	TextError string `json:"text_error,omitempty"`
}

// SpreadsheetPreview is a workbook's sheet names and a summary of one.
type SpreadsheetPreview struct {
	Sheets  []string            `json:"sheets"`
	Summary spreadsheet.Summary `json:"summary"`
}

// PreviewArgs name a file, its media type as the index knows it, and for
// a workbook the sheet to summarize ("" is the first).
type PreviewArgs struct {
	File  string
	MIME  string
	Sheet string
}

// PreviewKind is the kind of preview a file of this name and media type
// has, or "" when it has none.
func PreviewKind(name, mime string) string {
	switch {
	case strings.HasPrefix(mime, "image/") && mime != "image/svg+xml":
		return PreviewImage
	case mime == "application/pdf":
		return PreviewPDF
	case spreadsheet.IsCSV(name), strings.EqualFold(path.Ext(name), ".xlsx"),
		mime == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
		return PreviewSpreadsheet
	}
	return ""
}

// PreviewOf reads a file once and describes it for a person. A file with
// no preview, or one damaged or too large to read, is refused with why.
func PreviewOf(ctx context.Context, e Env, a PreviewArgs) (Preview, error) {
	name, err := e.Space.Resolve(ctx, a.File)
	if err != nil {
		return Preview{}, err
	}
	switch kind := PreviewKind(name, a.MIME); kind {
	case PreviewImage:
		info, err := e.probe(ctx, "preview", name)
		return Preview{Kind: kind, Image: &info}, err
	case PreviewPDF:
		return pdfPreview(ctx, e, a.File)
	case PreviewSpreadsheet:
		return readBook(ctx, e, "preview", a.File, func(b *spreadsheet.Book) (Preview, error) {
			s, err := b.Summary(ctx, a.Sheet, 5)
			return Preview{Kind: kind, Spreadsheet: &SpreadsheetPreview{Sheets: b.SheetNames(), Summary: s}}, err
		})
	}
	return Preview{}, files.E("preview", files.KindInvalid, name,
		"there is no preview of "+a.MIME+" files: previews are made of images, PDFs and spreadsheets (XLSX, CSV, TSV)", nil)
}

func pdfPreview(ctx context.Context, e Env, file string) (Preview, error) {
	src, err := e.load(ctx, file)
	if err != nil {
		return Preview{}, err
	}
	info, err := pdfs.Inspect(src.data)
	if err != nil {
		return Preview{}, refused("preview", src.name, err)
	}
	p := &PDFPreview{Info: info}
	if info.Pages > 0 && !info.Encrypted {
		text, err := content.ReadPDFText(ctx, src.data, []int{1}, pdfs.MaxPages)
		switch {
		case ctx.Err() != nil:
			return Preview{}, ctx.Err()
		case err != nil:
			p.TextError = files.MessageOf(refused("preview", src.name, err))
		case len(text.Pages) > 0:
			p.FirstPage, p.Truncated = cut(text.Pages[0].Text, MaxPreviewText)
			p.TextError = text.Pages[0].Error
		}
	}
	return Preview{Kind: PreviewPDF, PDF: p}, nil
}

// cut shortens s to at most n bytes at a character boundary.
func cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
