package content

import (
	"math"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// glyphReader interprets content streams for their text.
type glyphReader struct {
	out    []glyph
	ops    int
	err    error
	budget *decodedBudget // what streams inflate to, for the whole document
}

// textState is the part of the graphics state text depends on.
type textState struct {
	ctm                        matrix
	font                       *fontInfo
	size, tc, tw, th, tl, rise float64
}

// run interprets a content stream (or an array of them) with its
// resources, drawn with ctm.
func (g *glyphReader) run(strm, res pdf.Value, ctm matrix, depth int) error {
	if depth > maxFormDepth {
		return nil
	}
	st := textState{ctm: ctm, th: 1}
	fonts := map[string]*fontInfo{} // by resource name, read once a stream
	var stack []textState
	var tm, tlm matrix
	show := func(raw string) {
		if st.font == nil {
			return
		}
		// Within one string only the text matrix's translation moves:
		// every glyph's origin is m applied to (advance so far, rise).
		m := tm.mul(st.ctm)
		size := math.Hypot(m[2], m[3]) * st.size
		scale := math.Hypot(m[0], m[1])
		runes := []rune(nil)
		if cb := st.font.codeBytes; cb == 1 {
			if d := st.font.enc.Decode(raw); utf8.RuneCountInString(d) == len(raw) {
				runes = []rune(d) // one character a code: decoded at once
			}
		}
		adv := 0.0
		for i, n := 0, 0; i+st.font.codeBytes <= len(raw); i, n = i+st.font.codeBytes, n+1 {
			code := 0
			for _, b := range []byte(raw[i : i+st.font.codeBytes]) {
				code = code<<8 | int(b)
			}
			w0 := st.font.width(code)
			if len(g.out) >= maxPageGlyphs {
				g.err = errPageTooBusy
				return
			}
			var text string
			if runes != nil {
				text = string(runes[n])
			} else {
				text = st.font.enc.Decode(raw[i : i+st.font.codeBytes])
			}
			x, y := m.apply(adv, st.rise)
			g.out = append(g.out, glyph{x: x, y: y, w: w0 / 1000 * st.size * st.th * scale, size: size, s: text})
			tx := w0 / 1000 * st.size
			if st.font.codeBytes == 1 && code == ' ' {
				tx += st.tw
			}
			adv += (tx + st.tc) * st.th
		}
		tm = matrix{1, 0, 0, 1, adv, 0}.mul(tm)
	}
	nextLine := func() {
		tlm = matrix{1, 0, 0, 1, 0, -st.tl}.mul(tlm)
		tm = tlm
	}
	pdf.Interpret(strm, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		if g.err != nil {
			return // the stream is read to its end, doing nothing
		}
		if g.ops++; g.ops > maxPageOps {
			g.err = errPageTooBusy
			return
		}
		num := func(i int) float64 { return args[i].Float64() }
		switch {
		case op == "q":
			stack = append(stack, st)
		case op == "Q" && len(stack) > 0:
			st, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case op == "cm" && len(args) == 6:
			st.ctm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(st.ctm)
		case op == "BT":
			tm, tlm = identity, identity
		case op == "Tf" && len(args) == 2:
			name := args[0].Name()
			if _, ok := fonts[name]; !ok {
				fonts[name] = fontOf(res.Key("Font").Key(name))
			}
			st.font, st.size = fonts[name], num(1)
		case op == "Tc" && len(args) == 1:
			st.tc = num(0)
		case op == "Tw" && len(args) == 1:
			st.tw = num(0)
		case op == "Tz" && len(args) == 1:
			st.th = num(0) / 100
		case op == "TL" && len(args) == 1:
			st.tl = num(0)
		case op == "Ts" && len(args) == 1:
			st.rise = num(0)
		case (op == "Td" || op == "TD") && len(args) == 2:
			if op == "TD" {
				st.tl = -num(1)
			}
			tlm = matrix{1, 0, 0, 1, num(0), num(1)}.mul(tlm)
			tm = tlm
		case op == "Tm" && len(args) == 6:
			tm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}
			tlm = tm
		case op == "T*":
			nextLine()
		case op == "Tj" && len(args) == 1:
			show(args[0].RawString())
		case op == "'" && len(args) == 1:
			nextLine()
			show(args[0].RawString())
		case op == "\"" && len(args) == 3:
			st.tw, st.tc = num(0), num(1)
			nextLine()
			show(args[2].RawString())
		case op == "TJ" && len(args) == 1:
			for i := 0; i < args[0].Len(); i++ {
				if x := args[0].Index(i); x.Kind() == pdf.String {
					show(x.RawString())
				} else {
					tm = matrix{1, 0, 0, 1, -x.Float64() / 1000 * st.size * st.th, 0}.mul(tm)
				}
			}
		case op == "Do" && len(args) == 1:
			x := res.Key("XObject").Key(args[0].Name())
			if x.Key("Subtype").Name() != "Form" {
				return
			}
			if err := g.budget.chargeStream(x); err != nil {
				g.err = err
				return
			}
			xres := x.Key("Resources")
			if xres.IsNull() {
				xres = res
			}
			if err := g.run(x, xres, matrixOf(x.Key("Matrix"), identity).mul(st.ctm), depth+1); err != nil {
				g.err = err
			}
		}
	})
	return g.err
}

// fontOf reads a font dictionary; nil when there is none.
func fontOf(v pdf.Value) *fontInfo {
	if v.IsNull() {
		return nil
	}
	return newFontInfo(v)
}
