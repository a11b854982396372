package content

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"convfiles/internal/bytesize"
)

// Content is a typed view of one file's bytes: *Text, *Image, *PDF or *File.
type Content interface {
	// Kind is the content's type.
	Kind() Kind
	// Info returns the name, MIME type and size shared by every kind.
	Info() Meta
	// String is the text an LLM should see: the text itself, a PDF's
	// extracted text, or a one-line description of binary content.
	String() string
}

// Meta is what every kind of content carries.
type Meta struct {
	Name string
	MIME string
	Size int64
}

// Text is UTF-8 text.
type Text struct {
	Meta
	Text string
}

// Image is a picture with its dimensions in pixels (0 when the format does
// not state them, as an SVG without width and height).
type Image struct {
	Meta
	Data          []byte
	Width, Height int
}

// PDF is a PDF document with its page count and the text extracted from it.
// ExtractErr says why no text could be extracted from a damaged document.
type PDF struct {
	Meta
	Data       []byte
	Pages      int
	Text       string
	ExtractErr string
}

// File is any other bytes.
type File struct {
	Meta
	Data []byte
}

// Kind returns KindText.
func (*Text) Kind() Kind { return KindText }

// Kind returns KindImage.
func (*Image) Kind() Kind { return KindImage }

// Kind returns KindPDF.
func (*PDF) Kind() Kind { return KindPDF }

// Kind returns KindFile.
func (*File) Kind() Kind { return KindFile }

// Info returns the shared fields.
func (m Meta) Info() Meta { return m }

// String returns the text.
func (t *Text) String() string { return t.Text }

// String describes the image in one line.
func (i *Image) String() string {
	dims := ""
	if i.Width > 0 && i.Height > 0 {
		dims = fmt.Sprintf(", %d×%d", i.Width, i.Height)
	}
	return fmt.Sprintf("[Image: %s, %s%s, %s]", i.Name, i.MIME, dims, bytesize.Format(i.Size))
}

// String returns the extracted text, or a description when there is none.
func (p *PDF) String() string {
	if strings.TrimSpace(p.Text) != "" {
		return p.Text
	}
	why := "no extractable text"
	if p.ExtractErr != "" {
		why = "text extraction failed: " + p.ExtractErr
	}
	return fmt.Sprintf("[PDF document: %s, %d pages, %s, %s]", p.Name, p.Pages, bytesize.Format(p.Size), why)
}

// String describes the file in one line.
func (f *File) String() string {
	return fmt.Sprintf("[File: %s, %s, %s]", f.Name, f.MIME, bytesize.Format(f.Size))
}

// Data returns the raw bytes of c: the UTF-8 text of a Text, the bytes of
// every other kind.
func Data(c Content) []byte {
	switch c := c.(type) {
	case *Text:
		return []byte(c.Text)
	case *Image:
		return c.Data
	case *PDF:
		return c.Data
	case *File:
		return c.Data
	}
	return nil
}

// Parse types the whole content of the file name. It keeps data without
// copying it (a Text's string shares its memory), so the caller must not
// modify data afterwards.
func Parse(name string, data []byte) Content {
	head := data
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	kind, mt := Detect(name, head, len(data) <= SniffLen)
	if kind == KindText && len(data) > SniffLen && !looksText(data, true) {
		kind, mt = KindFile, "application/octet-stream"
	}
	meta := Meta{Name: name, MIME: mt, Size: int64(len(data))}
	switch kind {
	case KindText:
		return &Text{Meta: meta, Text: unsafe.String(unsafe.SliceData(data), len(data))}
	case KindImage:
		w, h := imageSize(mt, data)
		return &Image{Meta: meta, Data: data, Width: w, Height: h}
	case KindPDF:
		p := &PDF{Meta: meta, Data: data}
		p.Pages, p.Text, p.ExtractErr = extractPDF(data)
		return p
	}
	return &File{Meta: meta, Data: data}
}

// Calls names the format calls that read and change c, for a model that
// read it whole ("" for text, which it reads as it is): the
// files.spreadsheet, files.pdf and files.image helpers.
func Calls(c Content) string {
	name := strconv.Quote(c.Info().Name)
	switch c := c.(type) {
	case *Image:
		return "files.image.info(" + name + "), resize, crop, convert and toBase64 work on it"
	case *PDF:
		return "files.pdf.extractText(" + name + ", {pages: [1]}) reads pages; info, addText, addImage and fillForm work on it"
	case *File:
		if c.MIME == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
			return "a spreadsheet: files.spreadsheet.getSheetSummary(" + name + ") and readRange(" + name + ", sheet, \"A1:D20\") read it"
		}
	}
	return ""
}
