// Package pdfs reads and edits PDF documents for agents: their pages,
// metadata and form fields (pdfcpu), their text page by page
// (ledongthuc/pdf), and edits that add or remove pages, place text and
// images, fill forms, merge and split. Every call works on bytes in memory
// and writes to an io.Writer; every third-party call runs under a recover,
// so a malformed PDF is an error, never a crash.
package pdfs

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"convfiles/content"
)

// MaxPages is the most pages a document may have for convfiles to work on
// it, and the most a merge may produce.
const MaxPages = 5000

var configOnce sync.Once

// config returns pdfcpu's configuration: relaxed validation (real PDFs
// bend the spec), no configuration directory written under $HOME.
func config() *model.Configuration {
	configOnce.Do(api.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	return conf
}

// PageSize is a page's size in points (1/72 inch).
type PageSize struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Info is what Inspect tells about a document.
type Info struct {
	Pages     int        `json:"pages"`
	PageSizes []PageSize `json:"page_sizes"`
	Title     string     `json:"title"`
	Author    string     `json:"author"`
	Subject   string     `json:"subject"`
	Creator   string     `json:"creator"`
	Producer  string     `json:"producer"`
	Version   string     `json:"version"`
	HasForm   bool       `json:"has_form"`
	Encrypted bool       `json:"encrypted"`
}

// Inspect returns a document's page count, page sizes, metadata and
// whether it has a form.
func Inspect(data []byte) (Info, error) {
	var in *Info
	err := run("the PDF", func() error {
		pi, err := api.PDFInfo(bytes.NewReader(data), "", nil, false, config())
		if err != nil {
			return err
		}
		if err := checkPages(pi.PageCount); err != nil {
			return err
		}
		in = &Info{Pages: pi.PageCount, Title: pi.Title, Author: pi.Author, Subject: pi.Subject,
			Creator: pi.Creator, Producer: pi.Producer, Version: pi.Version, HasForm: pi.Form, Encrypted: pi.Encrypted,
			PageSizes: []PageSize{}}
		dims, err := api.PageDims(bytes.NewReader(data), config())
		if err != nil {
			return err
		}
		for _, d := range dims {
			in.PageSizes = append(in.PageSizes, PageSize{round2(d.Width), round2(d.Height)})
		}
		return nil
	})
	if err != nil {
		return Info{}, err
	}
	return *in, nil
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

func checkPages(n int) error {
	if n > MaxPages {
		return content.Refuse(content.ErrTooLarge, "the PDF has %d pages, more than the %d convfiles works on", n, MaxPages)
	}
	return nil
}

// PageCount returns how many pages a document has.
func PageCount(data []byte) (int, error) {
	n := 0
	err := run("the PDF", func() (err error) {
		n, err = api.PageCount(bytes.NewReader(data), config())
		if err == nil {
			err = checkPages(n)
		}
		return err
	})
	return n, err
}

// run calls pdfcpu under a recover and turns its errors into refusals:
// what is not a PDF, or is encrypted, or is damaged, says so.
func run(what string, f func() error) error {
	err := content.Guard(what, f)
	if err == nil {
		return nil
	}
	var r *content.Refusal
	if errors.As(err, &r) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "encrypt") || strings.Contains(msg, "password"):
		return content.Refuse(content.ErrUnsupported, "%s is encrypted: convfiles works only on PDFs without a password", what)
	case strings.Contains(msg, "no header") || strings.Contains(msg, "invalid PDF") || strings.Contains(msg, "corrupt"):
		return content.Refuse(content.ErrDamaged, "%s is not a valid PDF (%s)", what, msg)
	}
	return content.Refuse(content.ErrDamaged, "%s is damaged and cannot be read (%s)", what, msg)
}

// pageList checks 1-based page numbers against a document's page count.
func pageList(pages []int, count int) error {
	for _, p := range pages {
		if p < 1 || p > count {
			return content.Refuse(content.ErrBadRequest, "page %d does not exist: the document has pages 1 to %d", p, count)
		}
	}
	return nil
}

func selection(pages ...int) []string {
	out := make([]string, len(pages))
	for i, p := range pages {
		out[i] = fmt.Sprint(p)
	}
	return out
}
