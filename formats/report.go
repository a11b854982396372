package formats

import (
	"context"
	"path"
	"strings"

	"convfiles/content/reports"
	"convfiles/files"
)

// ReportArgs are a report's Markdown, the PDF it becomes and how its
// pages look.
type ReportArgs struct {
	Markdown string `json:"markdown"`
	Name     string `json:"name"`
	reports.Options
}

// FromMarkdown is pdf_from_markdown, files.pdf.fromMarkdown: a PDF made
// from Markdown (headings, paragraphs, emphasis, lists, tables, code,
// quotes, links, and images that are PNG or JPEG files of the
// conversation, charts included), its text real text. A name that is
// taken is replaced, its content kept as a version.
func FromMarkdown(ctx context.Context, e Env, a ReportArgs) (PDFEdited, error) {
	const op = "pdf.fromMarkdown"
	if !strings.EqualFold(path.Ext(a.Name), ".pdf") {
		return PDFEdited{}, files.E(op, files.KindInvalid, a.Name, `name the report's file with .pdf, like "report.pdf"`, nil)
	}
	if _, err := files.ValidateName(a.Name); err != nil {
		return PDFEdited{}, err
	}
	var failed error
	image := func(src string) ([]byte, error) {
		name, err := imageName(src)
		if err == nil {
			var s source
			if s, err = e.load(ctx, name); err == nil {
				return s.data, nil
			}
		}
		failed = err
		return nil, err
	}
	data, pages, err := reports.Render([]byte(a.Markdown), a.Options, image)
	if failed != nil {
		return PDFEdited{}, failed
	}
	if err != nil {
		return PDFEdited{}, files.E(op, files.KindInvalid, a.Name, err.Error(), nil)
	}
	w, err := e.save(ctx, a.Name, "", data, source{})
	return PDFEdited{File: w, Pages: pages}, err
}

// imageName is the file of the conversation a report's image link names:
// a path among its files, never a URL.
func imageName(src string) (string, error) {
	if strings.Contains(src, "://") || strings.HasPrefix(src, "data:") {
		return "", files.E("pdf.fromMarkdown", files.KindInvalid, src, "a report's images are files of the conversation, like charts/sales.png, not links elsewhere", nil)
	}
	return files.ValidateName(strings.TrimPrefix(src, "./"))
}
