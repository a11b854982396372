// Package pdfs reads and edits PDF documents for agents: their pages,
// metadata and form fields (pdfcpu), their text page by page
// (ledongthuc/pdf), and edits that add or remove pages, place text and
// images, fill forms, merge and split. Every call works on bytes in memory
// and writes to an io.Writer; every third-party call runs under a recover,
// so a malformed PDF is an error, never a crash.
//
// It must never import files, the engine or a door: it works on bytes.
package pdfs

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"

	"convfiles/content"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
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
// whether it has a form, from one read of it.
func Inspect(data []byte) (Info, error) {
	ctx, _, err := parse(data, model.LISTINFO, false)
	if err != nil {
		return Info{}, err
	}
	var in *Info
	err = run("the PDF", func() error {
		all := types.IntSet{}
		for p := 1; p <= ctx.PageCount; p++ {
			all[p] = true
		}
		pi, err := pdfcpu.Info(ctx, "", all, false)
		if err != nil {
			return err
		}
		dims, err := ctx.PageDims()
		if err != nil {
			return err
		}
		in = &Info{Pages: ctx.PageCount, Title: pi.Title, Author: pi.Author, Subject: pi.Subject,
			Creator: pi.Creator, Producer: pi.Producer, Version: pi.Version, HasForm: pi.Form, Encrypted: pi.Encrypted,
			PageSizes: make([]PageSize, 0, len(dims))}
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

// parse reads and validates a document once, for the command cmd, and
// refuses one with more than MaxPages pages. optimize readies it to be
// written again. Every operation here works on the result.
func parse(data []byte, cmd model.CommandMode, optimize bool) (*model.Context, *model.Configuration, error) {
	conf := config()
	conf.Cmd = cmd
	var ctx *model.Context
	err := run("the PDF", func() (err error) {
		if optimize {
			ctx, err = api.ReadValidateAndOptimize(bytes.NewReader(data), conf)
		} else {
			ctx, err = api.ReadAndValidate(bytes.NewReader(data), conf)
		}
		return err
	})
	if err == nil {
		err = checkPages(ctx.PageCount)
	}
	return ctx, conf, err
}

// write writes a document parsed for conf's command.
func write(ctx *model.Context, conf *model.Configuration, w io.Writer) error {
	return run("the PDF", func() error { return api.Write(ctx, w, conf) })
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
	ctx, _, err := parse(data, model.LISTINFO, false)
	if err != nil {
		return 0, err
	}
	return ctx.PageCount, nil
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
