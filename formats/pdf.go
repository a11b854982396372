package formats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"convfiles/content"
	"convfiles/content/images"
	"convfiles/content/pdfs"
	"convfiles/files"
)

// PDFInfo returns a document's pages, page sizes, metadata and whether it
// has a form.
func PDFInfo(ctx context.Context, e Env, a FileArgs) (pdfs.Info, error) {
	src, err := e.load(ctx, a.File)
	if err != nil {
		return pdfs.Info{}, err
	}
	out, err := pdfs.Inspect(src.data)
	return out, refused("pdf.info", src.name, err)
}

// TextArgs ask for the text of some pages (all when Pages is empty).
type TextArgs struct {
	File  string `json:"file"`
	Pages []int  `json:"pages,omitempty"`
}

// ExtractText returns a document's text page by page.
func ExtractText(ctx context.Context, e Env, a TextArgs) (content.PDFText, error) {
	src, err := e.load(ctx, a.File)
	if err != nil {
		return content.PDFText{}, err
	}
	out, err := pdfs.ExtractText(ctx, src.data, a.Pages)
	return out, refused("pdf.extractText", src.name, err)
}

// PDFEdited is what an edit of a PDF returns.
type PDFEdited struct {
	File   Written  `json:"file"`
	Pages  int      `json:"pages,omitempty"`  // the page count after the edit
	Filled []string `json:"filled,omitempty"` // the form fields filled
}

// editPDF runs edit on a document and writes the result back in place,
// keeping the earlier content as a version.
func (e Env) editPDF(ctx context.Context, op, file string, edit func(src source, w io.Writer) (PDFEdited, error)) (PDFEdited, error) {
	var out PDFEdited
	w, err := e.edit(ctx, op, file, false, func(src source) ([]byte, error) {
		buf := buffer(len(src.data) + 4096)
		var err error
		out, err = edit(src, buf)
		return buf.Bytes(), err
	})
	out.File = w
	var fe *files.Error
	if errors.As(err, &fe) && fe.Kind == files.KindNotFound && fe.Msg == "no such file" {
		err = files.E(fe.Op, files.KindNotFound, fe.Name, "no such file: start a new document with pdf.create (the tool pdf_create), or file_create of a .pdf", nil)
	}
	return out, err
}

// AddPageArgs add a blank page.
type AddPageArgs struct {
	File string `json:"file"`
	pdfs.PageOptions
}

// AddPage adds a blank page, after the last one unless After is given.
func AddPage(ctx context.Context, e Env, a AddPageArgs) (PDFEdited, error) {
	return e.editPDF(ctx, "pdf.addPage", a.File, func(src source, w io.Writer) (PDFEdited, error) {
		n, err := pdfs.AddPage(src.data, a.PageOptions, w)
		return PDFEdited{Pages: n}, err
	})
}

// PageArgs name one page, from 1.
type PageArgs struct {
	File string `json:"file"`
	Page int    `json:"page"`
}

// DeletePage removes a page.
func DeletePage(ctx context.Context, e Env, a PageArgs) (PDFEdited, error) {
	return e.editPDF(ctx, "pdf.deletePage", a.File, func(src source, w io.Writer) (PDFEdited, error) {
		n, err := pdfs.DeletePage(src.data, a.Page, w)
		return PDFEdited{Pages: n}, err
	})
}

// AddTextArgs place text on a page.
type AddTextArgs struct {
	PageArgs
	Text     string         `json:"text"`
	Position pdfs.Position  `json:"position"`
	Style    pdfs.TextStyle `json:"style,omitempty"`
}

// AddText writes text onto a page.
func AddText(ctx context.Context, e Env, a AddTextArgs) (PDFEdited, error) {
	return e.editPDF(ctx, "pdf.addText", a.File, func(src source, w io.Writer) (PDFEdited, error) {
		return PDFEdited{}, pdfs.AddText(src.data, a.Page, a.Text, a.Position, a.Style, w)
	})
}

// AddImageArgs place an image, another file of the conversation, on a page.
type AddImageArgs struct {
	PageArgs
	Image    string        `json:"image"`
	Position pdfs.Position `json:"position"`
	Size     pdfs.ImageBox `json:"size,omitempty"`
}

// AddImage draws an image file onto a page. PNG and JPEG are placed as
// they are; other formats are converted to PNG first.
func AddImage(ctx context.Context, e Env, a AddImageArgs) (PDFEdited, error) {
	img, err := e.load(ctx, a.Image)
	if err != nil {
		return PDFEdited{}, err
	}
	info, err := images.Probe(img.data)
	if err != nil {
		return PDFEdited{}, refused("pdf.addImage", img.name, err)
	}
	data := img.data
	if (info.Format != images.PNG && info.Format != images.JPEG) || info.Orientation != 1 {
		// only what a PDF cannot place as it is gets decoded and redrawn
		pic, _, err := images.Decode(img.data)
		if err != nil {
			return PDFEdited{}, refused("pdf.addImage", img.name, err)
		}
		buf := buffer(len(img.data))
		if err := images.Encode(buf, pic, images.PNG, images.EncodeOptions{}); err != nil {
			return PDFEdited{}, refused("pdf.addImage", img.name, err)
		}
		data = buf.Bytes()
	}
	return e.editPDF(ctx, "pdf.addImage", a.File, func(src source, w io.Writer) (PDFEdited, error) {
		return PDFEdited{}, pdfs.AddImage(src.data, a.Page, data, info.Width, info.Height, a.Position, a.Size, w)
	})
}

// FormFields lists a document's form fields.
func FormFields(ctx context.Context, e Env, a FileArgs) ([]pdfs.Field, error) {
	src, err := e.load(ctx, a.File)
	if err != nil {
		return nil, err
	}
	out, err := pdfs.FormFields(src.data)
	return out, refused("pdf.getFormFields", src.name, err)
}

// FillArgs fill form fields by name.
type FillArgs struct {
	File   string         `json:"file"`
	Fields map[string]any `json:"fields"`
}

// FillForm fills form fields in place.
func FillForm(ctx context.Context, e Env, a FillArgs) (PDFEdited, error) {
	return e.editPDF(ctx, "pdf.fillForm", a.File, func(src source, w io.Writer) (PDFEdited, error) {
		names, err := pdfs.FillForm(src.data, a.Fields, w)
		return PDFEdited{Filled: names}, err
	})
}

// MergeArgs merge documents into a new one.
type MergeArgs struct {
	Files  []string `json:"files"`
	Output string   `json:"output"`
}

// Merge writes the documents, in order, as the new file Output, derived
// from the first.
func Merge(ctx context.Context, e Env, a MergeArgs) (PDFEdited, error) {
	if a.Output == "" {
		return PDFEdited{}, files.E("pdf.merge", files.KindInvalid, "", "give the merged file a name (output), like \"combined.pdf\"", nil)
	}
	if len(a.Files) > 100 {
		return PDFEdited{}, files.E("pdf.merge", files.KindInvalid, "", "merge at most 100 files at once", nil)
	}
	docs := make([][]byte, len(a.Files))
	var first source
	total := 0
	for i, f := range a.Files {
		src, err := e.load(ctx, f)
		if err != nil {
			return PDFEdited{}, err
		}
		if total += len(src.data); total > MaxInputBytes*2 {
			return PDFEdited{}, files.E("pdf.merge", files.KindTooLarge, src.name, "the files to merge hold more than "+files.FormatBytes(MaxInputBytes*2), nil)
		}
		if i == 0 {
			first = src
		}
		docs[i] = src.data
	}
	buf := buffer(total)
	n, err := pdfs.Merge(docs, buf)
	if err != nil {
		return PDFEdited{}, refused("pdf.merge", a.Output, err)
	}
	w, err := e.save(ctx, a.Output, "", buf.Bytes(), first)
	return PDFEdited{File: w, Pages: n}, err
}

// SplitArgs split a document into new files by page ranges.
type SplitArgs struct {
	File   string   `json:"file"`
	Ranges []string `json:"ranges"`
	// Names, when given, names the parts in order; by default a part is
	// named after the file and its pages ("report-p1-3.pdf").
	Names []string `json:"names,omitempty"`
}

// SplitPages writes one new file per range, each derived from the file.
func SplitPages(ctx context.Context, e Env, a SplitArgs) ([]Written, error) {
	src, err := e.load(ctx, a.File)
	if err != nil {
		return nil, err
	}
	if len(a.Names) > 0 && len(a.Names) != len(a.Ranges) {
		return nil, files.E("pdf.splitPages", files.KindInvalid, src.name, fmt.Sprintf("give one name per range: %d names for %d ranges", len(a.Names), len(a.Ranges)), nil)
	}
	if len(a.Ranges) > 500 {
		return nil, files.E("pdf.splitPages", files.KindInvalid, src.name, "split into at most 500 parts at once", nil)
	}
	parts := make([]*bytes.Buffer, len(a.Ranges))
	defaults := make([]string, len(a.Ranges))
	err = pdfs.Split(src.data, a.Ranges, func(i, from, to int) (io.Writer, error) {
		suffix := fmt.Sprintf("-p%d-%d", from, to)
		if from == to {
			suffix = fmt.Sprintf("-p%d", from)
		}
		defaults[i] = derivedName(src.name, suffix, ".pdf")
		parts[i] = buffer(len(src.data) / max(1, len(a.Ranges)))
		return parts[i], nil
	})
	if err != nil {
		return nil, refused("pdf.splitPages", src.name, err)
	}
	out := make([]Written, 0, len(parts))
	for i, p := range parts {
		given := ""
		if len(a.Names) > 0 {
			given = a.Names[i]
		}
		w, err := e.save(ctx, given, defaults[i], p.Bytes(), src)
		if err != nil {
			return out, err
		}
		out = append(out, w)
	}
	return out, nil
}
