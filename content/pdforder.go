package content

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// The layout thresholds, as fractions of the font size, are poppler's
// (TextOutputDev.cc), so that text comes out in the order pdftotext gives.
const (
	minWordBreakSpace  = 0.1  // a gap this wide starts a new word
	minDupBreakOverlap = 0.2  // so does stepping back this far
	maxIntraLineDelta  = 0.5  // baselines this close are one line
	maxLineSpacing     = 1.5  // a line this far below joins a block
	maxWordSizeDelta   = 0.05 // font sizes this close make one word
	minColSpacing1     = 0.3  // a word this close beside a block joins it
	minColSpacing2     = 1.0  // a few words this close beside a block join it
	poolStep           = 4.0  // points of baseline in one pool
	ascent, descent    = 0.95, 0.35
)

// word is a run of glyphs without a gap; base is its baseline, with y
// growing downwards.
type word struct {
	x0, x1, base, size float64
	from, to           int // its text in the page's text buffer
	used               bool
}

// readingOrder lays glyphs out as text: words, blocks of words, and
// blocks in reading order (Breuel's rules, as poppler applies them);
// each block's lines end with "\n" and its words are parted by a space.
func readingOrder(glyphs []glyph) string {
	var b strings.Builder
	words, text := buildWords(glyphs)
	for _, blk := range sortBlocks(buildBlocks(words)) {
		for _, line := range blk.lineTexts(text) {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// buildWords joins glyphs, in the order they were drawn, into words,
// whose text it keeps in one buffer.
func buildWords(glyphs []glyph) ([]*word, []byte) {
	all := make([]word, 0, len(glyphs)/4+1)
	text := make([]byte, 0, len(glyphs))
	open := false // the last word takes more glyphs
	for _, g := range glyphs {
		s := g.s
		if len(s) != 1 || s[0] <= ' ' {
			s = strings.TrimFunc(s, unicode.IsSpace)
		}
		if s == "" || !placed(g) {
			open = false // a space, or nothing to show, ends a word
			continue
		}
		base := -g.y
		if open {
			cur := &all[len(all)-1]
			gap := g.x - cur.x1
			open = math.Abs(base-cur.base) <= maxIntraLineDelta*cur.size && gap <= minWordBreakSpace*cur.size &&
				gap >= -minDupBreakOverlap*cur.size && math.Abs(g.size-cur.size) <= maxWordSizeDelta*cur.size
		}
		if !open {
			all = append(all, word{x0: g.x, x1: g.x, base: base, size: g.size, from: len(text), to: len(text)})
			open = true
		}
		cur := &all[len(all)-1]
		text = append(text, s...)
		cur.to = len(text)
		cur.x1 = math.Max(cur.x1, g.x+g.w)
	}
	words := make([]*word, len(all))
	for i := range all {
		words[i] = &all[i]
	}
	return words, text
}

// maxCoordinate bounds where a glyph may land, in points from the
// page's origin: a hundred times the largest page PDF allows. A glyph
// beyond it, of a size beyond it or at a coordinate that overflowed is
// nowhere a reader could see it.
const maxCoordinate = 1.44e6

// placed reports whether g lands where text can be read: finite, within
// maxCoordinate, and of a positive size.
func placed(g glyph) bool {
	for _, v := range [...]float64{g.x, g.y, g.w, g.size} {
		if math.IsNaN(v) || math.Abs(v) > maxCoordinate {
			return false
		}
	}
	return g.size > 0
}

// textBlock is words read together; its bounds have y downwards.
type textBlock struct {
	words          []*word
	x0, x1, y0, y1 float64
	// ex0, ex1, ey0 and ey1 are the bounds reading order compares: a
	// table's, or the block's stretched toward its neighbours in x.
	ex0, ex1, ey0, ey1 float64
	table              int // the table the block is a cell of, or -1
}

func (b *textBlock) add(w *word) {
	w.used = true
	top, bottom := w.base-ascent*w.size, w.base+descent*w.size
	if len(b.words) == 0 {
		b.x0, b.x1, b.y0, b.y1 = w.x0, w.x1, top, bottom
	}
	b.words = append(b.words, w)
	b.x0, b.x1 = math.Min(b.x0, w.x0), math.Max(b.x1, w.x1)
	b.y0, b.y1 = math.Min(b.y0, top), math.Max(b.y1, bottom)
}

// lineTexts are the block's words by baseline, each line left to right.
func (b *textBlock) lineTexts(text []byte) []string {
	words := append([]*word(nil), b.words...)
	sort.SliceStable(words, func(i, j int) bool { return words[i].base < words[j].base })
	var out []string
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && words[j].base-words[i].base <= maxIntraLineDelta*words[i].size {
			j++
		}
		line := words[i:j]
		sort.SliceStable(line, func(a, c int) bool { return line[a].x0 < line[c].x0 })
		parts := make([]string, len(line))
		for k, w := range line {
			parts[k] = string(text[w.from:w.to])
		}
		out = append(out, strings.Join(parts, " "))
		i = j
	}
	return out
}
