package jpegscaled

// lookBits is how many bits the fast table of a Huffman code looks at.
const lookBits = 9

// huffman is one Huffman table: a fast table for codes of up to lookBits
// bits, and the canonical code's limits for the longer ones.
type huffman struct {
	ok bool
	// fast[b] is length<<8 | value for the code that the next lookBits
	// bits b start with, 0 when that code is longer.
	fast [1 << lookBits]uint16
	// fastAC[b], for an AC table, is a whole coefficient the next lookBits
	// bits b hold, code and magnitude: value<<8 | run<<4 | bits, 0 when
	// they hold less or the value is beyond ±127 (as stb_image does).
	fastAC  [1 << lookBits]int16
	maxCode [17]int32 // the largest code of each length, -1 when none
	valPtr  [17]int32 // index in vals of the first code of each length
	minCode [17]int32
	vals    [256]byte
}

// readHuffman reads one or more Huffman tables.
func (d *decoder) readHuffman(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return errDamaged("a short Huffman table")
		}
		tc, th := seg[0]>>4, int(seg[0]&15)
		if tc > 1 || th > 3 {
			return errDamaged("a Huffman table of class %d and number %d", tc, th)
		}
		var counts [16]int
		total := 0
		for i := range counts {
			counts[i] = int(seg[1+i])
			total += counts[i]
		}
		if total == 0 || total > 256 || len(seg) < 17+total {
			return errDamaged("a Huffman table of %d codes", total)
		}
		t := &d.dc[th]
		if tc == 1 {
			t = &d.ac[th]
		}
		if err := t.build(counts, seg[17:17+total]); err != nil {
			return err
		}
		seg = seg[17+total:]
	}
	return nil
}

// build makes the canonical code of counts (codes of each length 1–16)
// and vals.
func (t *huffman) build(counts [16]int, vals []byte) error {
	*t = huffman{ok: true}
	copy(t.vals[:], vals)
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		t.valPtr[l], t.minCode[l], t.maxCode[l] = k, code, -1
		if n > 0 {
			t.maxCode[l] = code + n - 1
			if t.maxCode[l] >= 1<<l {
				return errDamaged("a Huffman table with more codes of %d bits than there are", l)
			}
			if l <= lookBits {
				for c := code; c <= t.maxCode[l]; c++ {
					first := c << (lookBits - l)
					for j := range int32(1) << (lookBits - l) {
						t.fast[first+j] = uint16(l)<<8 | uint16(vals[k+c-code])
					}
				}
			}
		}
		k += n
		code = (code + n) << 1
	}
	for i, e := range t.fast {
		l, rs := uint(e>>8), byte(e)
		run, size := int16(rs>>4), uint(rs&15)
		if e == 0 || size == 0 || l+size > lookBits {
			continue
		}
		v := int32(i>>(lookBits-l-size)) & (1<<size - 1)
		if v < 1<<(size-1) {
			v += -1<<size + 1
		}
		if v >= -128 && v <= 127 {
			t.fastAC[i] = int16(v)<<8 | run<<4 | int16(l+size)
		}
	}
	return nil
}

// bitReader reads the entropy-coded bytes of a scan: 0xFF 0x00 is a data
// byte 0xFF, and a marker stops the data, after which zero bits are fed;
// reading them is an error the caller checks with truncated.
type bitReader struct {
	data   []byte
	pos    int
	acc    uint64 // the bits not yet read, in the low n bits
	n      uint
	zeros  int // zero bytes fed past the data
	marker bool
}

// fill tops the accumulator up to at least 57 bits.
func (b *bitReader) fill() {
	for b.n <= 56 {
		var c byte
		switch {
		case b.marker || b.pos >= len(b.data):
			b.zeros++
		case b.data[b.pos] != 0xFF:
			c = b.data[b.pos]
			b.pos++
		case b.pos+1 < len(b.data) && b.data[b.pos+1] == 0:
			c = 0xFF
			b.pos += 2
		default:
			b.marker = true
			b.zeros++
		}
		b.acc = b.acc<<8 | uint64(c)
		b.n += 8
	}
}

// truncated reports whether more bits were read than the data held.
func (b *bitReader) truncated() bool { return uint(b.zeros)*8 > b.n }

// bits reads n (at most 16) bits.
func (b *bitReader) bits(n uint) int32 {
	if b.n < n {
		b.fill()
	}
	b.n -= n
	return int32(b.acc>>b.n) & (1<<n - 1)
}

// extend reads an s-bit magnitude and gives it its sign, as JPEG codes
// coefficients.
func (b *bitReader) extend(s uint) int32 {
	if s == 0 {
		return 0
	}
	v := b.bits(s)
	if v < 1<<(s-1) {
		v += -1<<s + 1
	}
	return v
}

// decode reads one symbol of t.
func (b *bitReader) decode(t *huffman) (byte, bool) {
	if b.n < 16 {
		b.fill()
	}
	if e := t.fast[(b.acc>>(b.n-lookBits))&(1<<lookBits-1)]; e != 0 {
		b.n -= uint(e >> 8)
		return byte(e), true
	}
	for l := lookBits + 1; l <= 16; l++ {
		code := int32(b.acc>>(b.n-uint(l))) & (1<<l - 1)
		if code <= t.maxCode[l] {
			b.n -= uint(l)
			return t.vals[t.valPtr[l]+code-t.minCode[l]], true
		}
	}
	return 0, false
}

// restart skips to the byte after the restart marker that must come next,
// numbered want (0–7).
func (b *bitReader) restart(want int) bool {
	if b.truncated() {
		return false
	}
	// What is left in the accumulator is padding and bytes read ahead:
	// put the read-ahead bytes back.
	ahead := int(b.n/8) - b.zeros
	for ; ahead > 0; ahead-- {
		b.pos--
		if b.pos > 0 && b.data[b.pos] == 0 && b.data[b.pos-1] == 0xFF {
			b.pos--
		}
	}
	b.acc, b.n, b.zeros, b.marker = 0, 0, 0, false
	if b.pos+1 >= len(b.data) || b.data[b.pos] != 0xFF || b.data[b.pos+1] != 0xD0+byte(want) {
		return false
	}
	b.pos += 2
	return true
}
