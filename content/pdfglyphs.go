package content

import (
	"errors"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// glyph is one shown character (or the text its code decodes to) where
// it lands on the page: x and y of its baseline's start in the page's
// default space (y upwards), its advance w and its font size, all in
// points.
type glyph struct {
	x, y, w, size float64
	s             string
}

// Bounds of one page's text extraction: glyphs kept, nested form
// XObjects followed, and content operators interpreted.
const (
	maxPageGlyphs = 1 << 20
	maxFormDepth  = 8
	maxPageOps    = 8 << 20
)

var errPageTooBusy = errors.New("the page draws more than convfiles reads of one page")

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m × n: m applied first, then n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

// matrixOf reads a six-number array, or returns def.
func matrixOf(v pdf.Value, def matrix) matrix {
	if v.Kind() != pdf.Array || v.Len() != 6 {
		return def
	}
	var m matrix
	for i := range m {
		m[i] = v.Index(i).Float64()
	}
	return m
}

// pageGlyphs collects the text a page shows, as poppler draws it: its
// content, the form XObjects it paints (stamps such as files.pdf.addText
// adds), and the appearances of its visible annotations (filled form
// fields).
func pageGlyphs(p pdf.Page, budget *decodedBudget) ([]glyph, error) {
	g := &glyphReader{budget: budget, out: make([]glyph, 0, 4096)}
	res := p.Resources()
	if c := p.V.Key("Contents"); !c.IsNull() {
		if err := g.run(c, res, identity, 0); err != nil {
			return g.out, err
		}
	}
	annots := p.V.Key("Annots")
	for i := 0; i < annots.Len(); i++ {
		if err := g.annotation(annots.Index(i)); err != nil {
			return g.out, err
		}
	}
	return g.out, nil
}

// annotation draws an annotation's normal appearance into its
// rectangle, unless the annotation is hidden (flag bit 2) or has none.
func (g *glyphReader) annotation(a pdf.Value) error {
	if a.Key("F").Int64()&2 != 0 {
		return nil
	}
	ap := a.Key("AP").Key("N")
	if ap.Kind() == pdf.Dict && ap.Key("BBox").IsNull() { // appearances by state: the current one
		ap = ap.Key(a.Key("AS").Name())
	}
	rect, bbox := a.Key("Rect"), ap.Key("BBox")
	if ap.Kind() != pdf.Stream || rect.Len() != 4 || bbox.Len() != 4 {
		return nil
	}
	form := matrixOf(ap.Key("Matrix"), identity)
	// The bounding box, transformed by the form's matrix, is fitted
	// into the rectangle (PDF 32000-1, 12.5.5).
	x0, y0, x1, y1 := transformedBox(bbox, form)
	r0, r1 := math.Min(rect.Index(0).Float64(), rect.Index(2).Float64()), math.Min(rect.Index(1).Float64(), rect.Index(3).Float64())
	r2, r3 := math.Max(rect.Index(0).Float64(), rect.Index(2).Float64()), math.Max(rect.Index(1).Float64(), rect.Index(3).Float64())
	sx, sy := 1.0, 1.0
	if x1 > x0 {
		sx = (r2 - r0) / (x1 - x0)
	}
	if y1 > y0 {
		sy = (r3 - r1) / (y1 - y0)
	}
	fit := matrix{sx, 0, 0, sy, r0 - x0*sx, r1 - y0*sy}
	if err := g.budget.chargeStream(ap); err != nil {
		return err
	}
	return g.run(ap, ap.Key("Resources"), form.mul(fit), 1)
}

// transformedBox is the box around bbox's corners transformed by m.
func transformedBox(bbox pdf.Value, m matrix) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [][2]int{{0, 1}, {0, 3}, {2, 1}, {2, 3}} {
		x, y := m.apply(bbox.Index(c[0]).Float64(), bbox.Index(c[1]).Float64())
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	return
}

// fontInfo is a font as text extraction needs it: how codes decode, how
// wide each glyph is, and how many bytes a code takes.
type fontInfo struct {
	enc       pdf.TextEncoding
	codeBytes int
	widths    map[int]float64
	dflt      float64
}

func newFontInfo(v pdf.Value) *fontInfo {
	f := pdf.Font{V: v}
	fi := &fontInfo{enc: f.Encoder(), codeBytes: 1, widths: map[int]float64{}}
	if v.Key("Subtype").Name() == "Type0" {
		fi.codeBytes, fi.dflt = 2, 1000
		d := v.Key("DescendantFonts").Index(0)
		if dw := d.Key("DW"); !dw.IsNull() {
			fi.dflt = dw.Float64()
		}
		w := d.Key("W") // c [w1 w2 …] or c_first c_last w
		for i := 0; i+1 < w.Len() && len(fi.widths) < 1<<16; {
			first := int(w.Index(i).Int64())
			if next := w.Index(i + 1); next.Kind() == pdf.Array {
				for j := 0; j < next.Len(); j++ {
					fi.widths[first+j] = next.Index(j).Float64()
				}
				i += 2
				continue
			}
			if i+2 >= w.Len() {
				break
			}
			last, width := int(w.Index(i+1).Int64()), w.Index(i+2).Float64()
			for c := first; c <= last && c-first < 1<<16; c++ {
				fi.widths[c] = width
			}
			i += 3
		}
		return fi
	}
	first, ws := int(v.Key("FirstChar").Int64()), v.Key("Widths")
	for i := 0; i < ws.Len(); i++ {
		fi.widths[first+i] = ws.Index(i).Float64()
	}
	fi.dflt = v.Key("FontDescriptor").Key("MissingWidth").Float64()
	if ws.Len() == 0 && fi.dflt == 0 {
		// A standard font without metrics: Courier's 600, or Helvetica's
		// space and a typical letter, which keep a string's letters in
		// one word and its spaces narrower than a column gap.
		fi.dflt = 556
		if strings.HasPrefix(v.Key("BaseFont").Name(), "Courier") {
			fi.dflt = 600
		} else {
			fi.widths[' '] = 278
		}
	}
	if fi.enc == nil {
		fi.enc = nopDecoder{}
	}
	return fi
}

func (fi *fontInfo) width(code int) float64 {
	if w, ok := fi.widths[code]; ok {
		return w
	}
	return fi.dflt
}

// nopDecoder passes codes through as text.
type nopDecoder struct{}

func (nopDecoder) Decode(raw string) string { return raw }
