package pdfs

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"convfiles/content"
)

// Position places text or an image on a page: x and y in points from the
// page's bottom-left corner, as PDF measures.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// TextStyle is how AddText writes.
type TextStyle struct {
	Font  string  `json:"font,omitempty"`  // a standard PDF font: Helvetica (default), Times-Roman, Courier, and their Bold/Oblique variants
	Size  float64 `json:"size,omitempty"`  // in points; 12 by default
	Color string  `json:"color,omitempty"` // "#RRGGBB"; black by default
}

var hexColor = regexp.MustCompile(`^#?[0-9A-Fa-f]{6}$`)

var standardFonts = []string{"Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
	"Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
	"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Symbol", "ZapfDingbats"}

// AddText writes text onto a page at a position.
func AddText(data []byte, page int, text string, pos Position, st TextStyle, w io.Writer) error {
	if strings.TrimSpace(text) == "" {
		return content.Refuse(content.ErrBadRequest, "there is no text to add")
	}
	font := "Helvetica"
	if st.Font != "" {
		font = ""
		for _, f := range standardFonts {
			if strings.EqualFold(f, st.Font) {
				font = f
			}
		}
		if font == "" {
			return content.Refuse(content.ErrBadRequest, "unknown font %q: use one of %s", st.Font, strings.Join(standardFonts, ", "))
		}
	}
	size := st.Size
	if size == 0 {
		size = 12
	}
	if size < 1 || size > 500 {
		return content.Refuse(content.ErrBadRequest, "the text size must be 1 to 500 points, not %g", size)
	}
	color := "#000000"
	if st.Color != "" {
		if !hexColor.MatchString(st.Color) {
			return content.Refuse(content.ErrBadRequest, "%q is not a color: write it as \"#RRGGBB\"", st.Color)
		}
		color = "#" + strings.TrimPrefix(st.Color, "#")
	}
	desc := fmt.Sprintf("fontname:%s, points:%g, fillcolor:%s, pos:bl, off:%g %g, rot:0, scale:1 abs, opacity:1, aligntext:left",
		font, size, color, pos.X, pos.Y)
	return stamp(data, page, func() (*model.Watermark, error) {
		return api.TextWatermark(text, desc, true, false, types.POINTS)
	}, w)
}

// ImageBox is the size an image is drawn at, in points; with one side 0
// the image keeps its aspect ratio, with both 0 it is drawn one point per
// pixel.
type ImageBox struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// AddImage draws an image (PNG, JPEG or TIFF bytes) onto a page, its
// bottom-left corner at the position.
func AddImage(data []byte, page int, img []byte, imgWidth, imgHeight int, pos Position, box ImageBox, w io.Writer) error {
	if imgWidth <= 0 || imgHeight <= 0 {
		return content.Refuse(content.ErrBadRequest, "the image has no size")
	}
	scale := 1.0
	switch {
	case box.Width > 0:
		scale = box.Width / float64(imgWidth)
	case box.Height > 0:
		scale = box.Height / float64(imgHeight)
	}
	if box.Width < 0 || box.Height < 0 || scale > 100 {
		return content.Refuse(content.ErrBadRequest, "the image size must be positive and at most 100 times its pixels")
	}
	desc := fmt.Sprintf("pos:bl, off:%g %g, rot:0, scale:%g abs, opacity:1", pos.X, pos.Y, scale)
	return stamp(data, page, func() (*model.Watermark, error) {
		return api.ImageWatermarkForReader(bytes.NewReader(img), desc, true, false, types.POINTS)
	}, w)
}

// stamp lays a watermark made by mk on top of one page.
func stamp(data []byte, page int, mk func() (*model.Watermark, error), w io.Writer) error {
	ctx, conf, err := parse(data, model.ADDWATERMARKS, true)
	if err != nil {
		return err
	}
	if err := pageList([]int{page}, ctx.PageCount); err != nil {
		return err
	}
	var wm *model.Watermark
	if err := content.Guard("the stamp", func() (err error) { wm, err = mk(); return }); err != nil {
		return content.Refuse(content.ErrBadRequest, "cannot place it: %v", err)
	}
	err = run("the PDF", func() error { return api.WatermarkContext(ctx, types.IntSet{page: true}, wm) })
	if err != nil {
		return err
	}
	return write(ctx, conf, w)
}
