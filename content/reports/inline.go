package reports

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the formats a report's images may have
	_ "image/png"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// style is how a run of text is written.
type style struct {
	bold, italic, code bool
	link               string
}

func (s style) fontStyle() string {
	out := ""
	if s.bold {
		out += "B"
	}
	if s.italic {
		out += "I"
	}
	return out
}

// inline writes n's inline content as flowing text, wrapped between the
// blocks' left edge and the right margin.
func (w *writer) inline(n ast.Node, link string) error {
	left, top, right, _ := w.pdf.GetMargins()
	w.pdf.SetMargins(w.leftEdge(), top, right)
	defer w.pdf.SetMargins(left, top, right)
	if w.pdf.GetX() < w.leftEdge() {
		w.left()
	}
	_, size := w.pdf.GetFontSize()
	return w.runs(n, style{link: link}, size)
}

func (w *writer) runs(n ast.Node, s style, size float64) error {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			w.run(string(t.Segment.Value(w.source)), s, size)
			if t.HardLineBreak() {
				w.pdf.Ln(size * lineGap)
			} else if t.SoftLineBreak() {
				w.run(" ", s, size)
			}
		case *ast.String:
			w.run(string(t.Value), s, size)
		case *ast.CodeSpan:
			inner := s
			inner.code = true
			if err := w.runs(t, inner, size); err != nil {
				return err
			}
		case *ast.Emphasis:
			inner := s
			if t.Level >= 2 {
				inner.bold = true
			} else {
				inner.italic = true
			}
			if err := w.runs(t, inner, size); err != nil {
				return err
			}
		case *ast.Link:
			inner := s
			inner.link = string(t.Destination)
			if err := w.runs(t, inner, size); err != nil {
				return err
			}
		case *ast.AutoLink:
			inner := s
			inner.link = string(t.URL(w.source))
			w.run(string(t.Label(w.source)), inner, size)
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				w.run(string(seg.Value(w.source)), s, size)
			}
		case *ast.Image:
			if err := w.picture(t); err != nil {
				return err
			}
		case *east.Strikethrough:
			if err := w.runs(t, s, size); err != nil {
				return err
			}
		default:
			if err := w.runs(c, s, size); err != nil {
				return err
			}
		}
	}
	return nil
}

// run writes one run of text in its style: code in the monospaced font,
// a link in blue, underlined, and a link of the PDF.
func (w *writer) run(text string, s style, size float64) {
	if text == "" {
		return
	}
	h := size * lineGap
	switch {
	case s.code:
		w.setFontFamily("mono", "", size*0.9)
	default:
		w.setFont(s.fontStyle(), size)
	}
	if s.link != "" && (strings.HasPrefix(s.link, "http://") || strings.HasPrefix(s.link, "https://") || strings.HasPrefix(s.link, "mailto:")) {
		w.pdf.SetTextColor(47, 95, 179)
		w.pdf.SetFont("sans", s.fontStyle()+"U", size)
		w.pdf.WriteLinkString(h, text, s.link)
		w.setFont(s.fontStyle(), size)
		return
	}
	w.pdf.Write(h, text)
}

// write writes plain text in the body's style.
func (w *writer) write(text string) {
	w.left()
	w.run(text, style{}, bodySize)
}

// plain is the text of n's inline content, without its styles.
func (w *writer) plain(n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(w.source))
				if t.SoftLineBreak() || t.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(t.Value)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// picture writes an image of the conversation on lines of its own, as
// wide as it is (at 96 dots an inch) or as the text, whichever is less.
func (w *writer) picture(img *ast.Image) error {
	src := string(img.Destination)
	if w.images++; w.images > MaxImages {
		return fmt.Errorf("a report shows at most %d images", MaxImages)
	}
	if w.image == nil {
		return fmt.Errorf("the image %s cannot be read here", src)
	}
	data, err := w.image(src)
	if err != nil {
		return err
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || format != "png" && format != "jpeg" {
		return fmt.Errorf("the image %s is not a PNG or JPEG (a chart for a report is rendered as .png)", src)
	}
	if cfg.Width*cfg.Height > 40_000_000 {
		return fmt.Errorf("the image %s is %d×%d pixels; a report's images are at most 40 megapixels", src, cfg.Width, cfg.Height)
	}
	kind := map[string]string{"png": "PNG", "jpeg": "JPG"}[format]
	opts := fpdf.ImageOptions{ImageType: kind}
	name := fmt.Sprintf("image-%d", w.images)
	w.pdf.RegisterImageOptionsReader(name, opts, bytes.NewReader(data))
	width := min(float64(cfg.Width)*0.75, w.width())
	height := width * float64(cfg.Height) / float64(cfg.Width)
	_, size := w.pdf.GetFontSize()
	if w.pdf.GetX() > w.leftEdge()+1 {
		w.pdf.Ln(size * lineGap)
	}
	if _, ph := w.pdf.GetPageSize(); w.pdf.GetY()+height > ph-w.bottom() {
		w.pdf.AddPage()
	}
	w.pdf.ImageOptions(name, w.leftEdge(), w.pdf.GetY(), width, height, true, opts, 0, "")
	w.left()
	return nil
}
