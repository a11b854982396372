package reports

import (
	"fmt"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// writer walks the Markdown's tree and writes it into the PDF.
type writer struct {
	pdf    *fpdf.Fpdf
	image  Image
	source []byte
	images int
	indent float64 // points the blocks are moved right (lists, quotes)
	quote  bool
}

const (
	bodySize = 11.0
	lineGap  = 1.35 // line height, in font sizes
)

// headingSizes are the font sizes of the title (0) and of # to ######.
var headingSizes = []float64{22, 18, 15, 13, 12, 11, 11}

// blocks writes the blocks below n, in order.
func (w *writer) blocks(n ast.Node) error {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if w.pdf.PageNo() > MaxPages {
			return fmt.Errorf("the report is longer than %d pages", MaxPages)
		}
		if err := w.block(c); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) block(n ast.Node) error {
	switch b := n.(type) {
	case *ast.Heading:
		w.heading(b.Level, w.plain(b))
	case *ast.Paragraph, *ast.TextBlock:
		w.setFont("", bodySize)
		if err := w.inline(b, ""); err != nil {
			return err
		}
		w.endParagraph()
	case *ast.List:
		return w.list(b)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.code(b)
	case *east.Table:
		w.table(b)
	case *ast.Blockquote:
		w.indent += 18
		w.quote = true
		err := w.blocks(b)
		w.indent -= 18
		w.quote = false
		return err
	case *ast.ThematicBreak:
		w.space(6)
		left, _, right, _ := w.pdf.GetMargins()
		pw, _ := w.pdf.GetPageSize()
		y := w.pdf.GetY()
		w.pdf.SetDrawColor(180, 186, 198)
		w.pdf.Line(left, y, pw-right, y)
		w.space(10)
	case *ast.HTMLBlock:
		w.setFont("", bodySize)
		w.write(w.lines(b))
		w.endParagraph()
	default:
		return w.blocks(n)
	}
	return nil
}

// heading writes a heading of level (0: the document's title) on its
// own line, kept with the start of what follows.
func (w *writer) heading(level int, text string) {
	size := headingSizes[min(level, len(headingSizes)-1)]
	if _, h := w.pdf.GetPageSize(); w.pdf.GetY()+size*4 > h-w.bottom() {
		w.pdf.AddPage()
	}
	w.space(size * 0.6)
	w.setFont("B", size)
	w.left()
	w.pdf.MultiCell(w.width(), size*1.25, text, "", "L", false)
	w.space(size * 0.35)
}

// list writes each item with its bullet or number, its blocks moved in.
func (w *writer) list(l *ast.List) error {
	n := l.Start
	if n == 0 {
		n = 1
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "•"
		if l.IsOrdered() {
			marker = fmt.Sprintf("%d.", n)
			n++
		}
		w.setFont("", bodySize)
		w.left()
		w.pdf.SetX(w.pdf.GetX() + 4)
		w.pdf.CellFormat(14, bodySize*lineGap, marker, "", 0, "L", false, 0, "")
		w.indent += 18
		err := w.itemBlocks(item)
		w.indent -= 18
		if err != nil {
			return err
		}
	}
	w.space(4)
	return nil
}

// itemBlocks writes a list item's blocks, the first on the bullet's line.
func (w *writer) itemBlocks(item ast.Node) error {
	first := true
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		if first {
			if tb, ok := c.(*ast.TextBlock); ok {
				w.setFont("", bodySize)
				if err := w.inline(tb, ""); err != nil {
					return err
				}
				w.pdf.Ln(bodySize * lineGap)
				first = false
				continue
			}
			w.pdf.Ln(bodySize * lineGap)
		}
		first = false
		if err := w.block(c); err != nil {
			return err
		}
	}
	return nil
}

// code writes a code block in the monospaced font on a grey ground,
// long lines wrapped.
func (w *writer) code(n ast.Node) {
	w.space(4)
	w.setFontFamily("mono", "", 9)
	w.pdf.SetFillColor(243, 244, 247)
	lh := 9 * 1.4
	for _, line := range strings.Split(strings.TrimRight(w.lines(n), "\n"), "\n") {
		line = strings.ReplaceAll(line, "\t", "    ")
		for _, part := range splitOrOne(w.pdf, line, w.width()-8) {
			w.left()
			w.pdf.CellFormat(w.width(), lh, " "+part, "", 1, "L", true, 0, "")
		}
	}
	w.space(6)
}

// splitOrOne wraps a line of text at spaces to lines no wider than width
// in the current font (a word wider than that is cut between letters);
// an empty line stays one line.
func splitOrOne(pdf *fpdf.Fpdf, line string, width float64) []string {
	var out []string
	cur := ""
	for _, word := range strings.SplitAfter(line, " ") {
		if pdf.GetStringWidth(cur+word) <= width || cur == "" && pdf.GetStringWidth(word) <= width {
			cur += word
			continue
		}
		if cur != "" {
			out = append(out, strings.TrimRight(cur, " "))
			cur = ""
		}
		for pdf.GetStringWidth(word) > width {
			r := []rune(word)
			n := len(r) - 1
			for n > 1 && pdf.GetStringWidth(string(r[:n])) > width {
				n--
			}
			out = append(out, string(r[:n]))
			word = string(r[n:])
		}
		cur = word
	}
	return append(out, strings.TrimRight(cur, " "))
}

// lines is the text of a block's lines, as written in the Markdown.
func (w *writer) lines(n ast.Node) string {
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(w.source))
	}
	return b.String()
}

// The page's geometry, with the blocks' indent.
func (w *writer) leftEdge() float64 { l, _, _, _ := w.pdf.GetMargins(); return l + w.indent }
func (w *writer) left()             { w.pdf.SetX(w.leftEdge()) }
func (w *writer) bottom() float64   { _, _, _, b := w.pdf.GetMargins(); return b }
func (w *writer) width() float64 {
	l, _, r, _ := w.pdf.GetMargins()
	pw, _ := w.pdf.GetPageSize()
	return pw - l - r - w.indent
}

func (w *writer) space(h float64) { w.pdf.Ln(h) }

func (w *writer) endParagraph() {
	w.pdf.Ln(bodySize * lineGap)
	w.space(bodySize * 0.5)
}

func (w *writer) setFont(style string, size float64) { w.setFontFamily("sans", style, size) }

func (w *writer) setFontFamily(family, style string, size float64) {
	w.pdf.SetFont(family, style, size)
	if w.quote {
		w.pdf.SetTextColor(86, 96, 122)
	} else {
		w.pdf.SetTextColor(29, 36, 51)
	}
}
