package formats

import (
	"bytes"
	"context"
	"encoding/csv"
	"path"
	"strings"

	"convfiles/content/pdfs"
	"convfiles/content/spreadsheet"
	"convfiles/files"
)

// CreatePDFArgs make a new document of blank pages.
type CreatePDFArgs struct {
	File        string `json:"file"`
	Pages       int    `json:"pages,omitempty"`       // how many blank pages: 1 by default
	Size        string `json:"size,omitempty"`        // A4 (default), A3, A5, Letter, Legal, Tabloid, …
	Orientation string `json:"orientation,omitempty"` // portrait (default) or landscape
}

// CreatePDF makes a new document of blank pages (one A4 portrait page by
// default), ready for addText, addImage and addPage. A name that is taken
// is a conflict: a document is never replaced by an empty one.
func CreatePDF(ctx context.Context, e Env, a CreatePDFArgs) (PDFEdited, error) {
	var buf bytes.Buffer
	if err := pdfs.Blank(pdfs.PageOptions{Size: a.Size, Orientation: a.Orientation}, a.Pages, &buf); err != nil {
		return PDFEdited{}, refused("pdf.create", a.File, err)
	}
	w, err := e.create(ctx, a.File, buf.Bytes())
	return PDFEdited{File: w, Pages: max(a.Pages, 1)}, err
}

// CreateSheetArgs make a new workbook, or a CSV file.
type CreateSheetArgs struct {
	File string `json:"file"`
	// Sheets names the workbook's sheets, in order: one "Sheet1" by
	// default. A CSV file has one sheet, named after the file.
	Sheets []string `json:"sheets,omitempty"`
	// Headers, when given, is the first row of every sheet.
	Headers []string `json:"headers,omitempty"`
}

// CreateSheet makes a new XLSX workbook with the sheets asked for, or a
// CSV file (by its name: .csv, .tsv) holding only the headers; every
// spreadsheet operation accepts either. A name that is taken is a
// conflict.
func CreateSheet(ctx context.Context, e Env, a CreateSheetArgs) (Edited, error) {
	data, err := newSheetBytes(a)
	if err != nil {
		return Edited{}, refused("spreadsheet.create", a.File, err)
	}
	w, err := e.create(ctx, a.File, data)
	return Edited{File: w}, err
}

func newSheetBytes(a CreateSheetArgs) ([]byte, error) {
	var buf bytes.Buffer
	if spreadsheet.IsCSV(a.File) {
		if len(a.Sheets) > 0 {
			return nil, files.E("spreadsheet.create", files.KindInvalid, a.File, "a CSV file has one sheet, named after the file: give sheets only for an .xlsx workbook", nil)
		}
		if len(a.Headers) > 0 {
			w := csv.NewWriter(&buf)
			if strings.EqualFold(path.Ext(a.File), ".tsv") {
				w.Comma = '\t'
			}
			w.Write(a.Headers)
			w.Flush()
		}
		return buf.Bytes(), nil
	}
	sheets := a.Sheets
	if len(sheets) == 0 {
		sheets = []string{"Sheet1"}
	}
	b, err := spreadsheet.New(sheets[0])
	if err != nil {
		return nil, err
	}
	defer b.Close()
	headers := make([]any, len(a.Headers))
	for i, h := range a.Headers {
		headers[i] = h
	}
	for i, s := range sheets {
		if i > 0 {
			if err := b.AddSheet(s); err != nil {
				return nil, err
			}
		}
		if len(a.Headers) > 0 {
			if _, err := b.WriteRange(s, "A1", [][]any{headers}); err != nil {
				return nil, err
			}
		}
	}
	err = b.Save(&buf)
	return buf.Bytes(), err
}

// BlankDocument is the content of a new, empty file named name, of the
// declared MIME type mime when one is given: a document of one blank page
// for a PDF, a workbook of one sheet for an .xlsx, nothing for any other
// (an empty CSV is a valid one).
func BlankDocument(name, mime string) ([]byte, error) {
	var buf bytes.Buffer
	switch ext := strings.ToLower(path.Ext(name)); {
	case ext == ".pdf", ext == "" && mime == "application/pdf":
		err := pdfs.Blank(pdfs.PageOptions{}, 1, &buf)
		return buf.Bytes(), err
	case ext == ".xlsx":
		return newSheetBytes(CreateSheetArgs{File: name})
	}
	return nil, nil
}

// create writes data as a new file named name, refusing a taken name.
func (e Env) create(ctx context.Context, name string, data []byte) (Written, error) {
	opts := e.Write
	opts.NoReplace = true
	return e.write(ctx, name, data, opts)
}
