package content

import (
	"math"
	"sort"
)

// pool holds the words not yet in a block, by baseline bucket of
// poolStep points, each bucket left to right. keys are the buckets that
// hold words, in order, so a scan costs the buckets it finds, never the
// distance between them: a hostile page may put its words light years
// apart.
type pool struct {
	buckets map[int][]*word
	keys    []int
	top     int // keys[top:] may still hold unused words
	left    int
}

func newPool(words []*word) *pool {
	p := &pool{buckets: map[int][]*word{}, left: len(words)}
	for _, w := range words {
		i := bucketOf(w.base)
		if len(p.buckets[i]) == 0 {
			p.keys = append(p.keys, i)
		}
		p.buckets[i] = append(p.buckets[i], w)
	}
	sort.Ints(p.keys)
	for _, b := range p.buckets {
		sort.SliceStable(b, func(i, j int) bool { return b[i].x0 < b[j].x0 })
	}
	return p
}

func bucketOf(base float64) int { return int(math.Floor(base / poolStep)) }

// first is the left-most unused word of bucket i, or nil.
func (p *pool) first(i int) *word {
	for _, w := range p.buckets[i] {
		if !w.used {
			return w
		}
	}
	return nil
}

// each calls f with every unused word of the buckets covering baselines
// lo to hi; f returns true to stop scanning that bucket.
func (p *pool) each(lo, hi float64, f func(w *word) (stop bool)) {
	last := bucketOf(hi)
	for k := sort.SearchInts(p.keys, bucketOf(lo)); k < len(p.keys) && p.keys[k] <= last; k++ {
		i := p.keys[k]
		b := p.buckets[i]
		if len(b) == 0 {
			continue
		}
		for _, w := range b {
			if !w.used && f(w) {
				break
			}
		}
		kept := b[:0] // words taken into blocks are dropped from the pool
		for _, w := range b {
			if !w.used {
				kept = append(kept, w)
			}
		}
		p.buckets[i] = kept
	}
}

// buildBlocks grows blocks of words as poppler does: from the left-most
// word of the top lines, it takes in words on the lines just above and
// below that overlap it, words of its lines that touch it, and a few
// words close beside it, until none is left to take.
func buildBlocks(words []*word) []*textBlock {
	p := newPool(words)
	var blocks []*textBlock
	for p.left > 0 {
		for p.top < len(p.keys) && p.first(p.keys[p.top]) == nil {
			p.top++
		}
		topBucket := p.keys[p.top]
		start := p.first(topBucket)
		for k := p.top + 1; k < len(p.keys) && p.keys[k] < topBucket+4; k++ {
			if w := p.first(p.keys[k]); w != nil && w.x0 < start.x0 {
				start = w // not a superscript
			}
		}
		blk := &textBlock{}
		p.grow(blk, start)
		blocks = append(blocks, blk)
	}
	return blocks
}

// grow builds one block from its first word.
func (p *pool) grow(blk *textBlock, w0 *word) {
	take := func(w *word) { blk.add(w); p.left-- }
	take(w0)
	size := w0.size
	minBase, maxBase := w0.base, w0.base
	lineSpace, intra := maxLineSpacing*size, maxIntraLineDelta*size
	col1, col2 := minColSpacing1*size, minColSpacing2*size
	near := func(w *word, delta float64) bool { return math.Abs(w.size-size) < delta*size }
	for found := true; found; {
		found = false
		newMin := minBase
		p.each(minBase-lineSpace, minBase, func(w *word) bool {
			if w.base < minBase && w.base >= minBase-lineSpace && w.x0 < blk.x1 && w.x1 > blk.x0 && near(w, 0.05) {
				take(w)
				found, newMin = true, math.Min(newMin, w.base)
			}
			return false
		})
		minBase = newMin
		newMax := maxBase
		p.each(maxBase, maxBase+lineSpace, func(w *word) bool {
			if w.base > maxBase && w.base <= maxBase+lineSpace && w.x0 < blk.x1 && w.x1 > blk.x0 && near(w, 0.05) {
				take(w)
				found, newMax = true, math.Max(newMax, w.base)
			}
			return false
		})
		maxBase = newMax
		p.each(minBase-intra, maxBase+intra, func(w *word) bool {
			if w.base >= minBase-intra && w.base <= maxBase+intra && w.x0 < blk.x1+col1 && w.x1 > blk.x0-col1 && near(w, 0.6) {
				take(w)
				found = true
			}
			return false
		})
		if found {
			continue
		}
		for _, side := range []func(w *word) bool{
			func(w *word) bool { return w.x1 <= blk.x0 && w.x1 > blk.x0-col2 },
			func(w *word) bool { return w.x0 >= blk.x1 && w.x0 < blk.x1+col2 },
		} {
			beside := func(w *word) bool {
				return w.base >= minBase-intra && w.base <= maxBase+intra && side(w) && near(w, 0.2)
			}
			n := 0
			p.each(minBase-intra, maxBase+intra, func(w *word) bool {
				if beside(w) {
					n++
					return true
				}
				return false
			})
			if n == 0 || n > 3 {
				continue
			}
			p.each(minBase-intra, maxBase+intra, func(w *word) bool {
				if !beside(w) {
					return false
				}
				take(w)
				minBase, maxBase, found = math.Min(minBase, w.base), math.Max(maxBase, w.base), true
				return true
			})
		}
	}
}
