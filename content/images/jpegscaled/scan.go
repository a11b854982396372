package jpegscaled

import (
	"image"
	"math"
)

// unzig maps a coefficient's place in the zigzag order to its place in
// the block, row by row.
var unzig = [64]int{
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
}

// keepAt[n][k] is where the coefficient at zigzag place k goes in a
// block reduced to n×n (v*n+u), or -1 when its frequency is n or more.
var keepAt = func() (t [9][64]int8) {
	for _, n := range []int{1, 2, 4} {
		for k, z := range unzig {
			t[n][k] = -1
			if z%8 < n && z/8 < n {
				t[n][k] = int8((z/8)*n + z%8)
			}
		}
	}
	return t
}()

// basis[n][k*n+u] is the 8-point inverse DCT's cosine of frequency u at
// the centre of the k-th of n equal cells of the block, with its factor
// C(u)/2: the value of an n×n reduced block is the full block's smooth
// reconstruction sampled at its cells' centres, from frequencies below n.
var basis = func() (b [9][]float32) {
	for _, n := range []int{1, 2, 4} {
		s := 8 / n
		b[n] = make([]float32, n*n)
		for k := range n {
			for u := range n {
				c := 0.5
				if u == 0 {
					c = 0.5 / math.Sqrt2
				}
				b[n][k*n+u] = float32(c * math.Cos(float64(s*(2*k+1)*u)*math.Pi/16))
			}
		}
	}
	return b
}()

// decodeScan decodes the scan's MCUs into planes of 8/scale samples a
// block side.
func (d *decoder) decodeScan() (image.Image, error) {
	n := 8 / d.scale
	mcuW, mcuH := 8*d.maxH, 8*d.maxV
	mx, my := (d.width+mcuW-1)/mcuW, (d.height+mcuH-1)/mcuH
	w, h := (d.width+d.scale-1)/d.scale, (d.height+d.scale-1)/d.scale
	var out image.Image
	if len(d.comps) == 1 {
		g := image.NewGray(image.Rect(0, 0, n*mx, n*my))
		d.comps[0].plane, d.comps[0].stride = g.Pix, g.Stride
		out = g.SubImage(image.Rect(0, 0, w, h))
	} else {
		y := d.comps[0]
		img := image.NewYCbCr(image.Rect(0, 0, n*y.h*mx, n*y.v*my), d.ratio())
		d.comps[0].plane, d.comps[0].stride = img.Y, img.YStride
		d.comps[1].plane, d.comps[1].stride = img.Cb, img.CStride
		d.comps[2].plane, d.comps[2].stride = img.Cr, img.CStride
		out = img.SubImage(image.Rect(0, 0, w, h))
	}
	b := &bitReader{data: d.data, pos: d.scanStart}
	var coef [64]float32
	for mcu, rst := 0, 0; mcu < mx*my; mcu++ {
		if d.restart > 0 && mcu > 0 && mcu%d.restart == 0 {
			if !b.restart(rst) {
				return nil, errDamaged("a restart marker is missing before MCU %d", mcu)
			}
			rst = (rst + 1) % 8
			for i := range d.comps {
				d.comps[i].pred = 0
			}
		}
		bx, by := mcu%mx, mcu/mx
		for ci := range d.comps {
			c := &d.comps[ci]
			for v := range c.v {
				for u := range c.h {
					if err := d.readBlock(b, c, n, &coef); err != nil {
						return nil, err
					}
					x, y := (bx*c.h+u)*n, (by*c.v+v)*n
					idct(c.plane[y*c.stride+x:], c.stride, n, &coef)
				}
			}
		}
		if b.truncated() {
			return nil, errDamaged("the scan ends before MCU %d of %d", mcu+1, mx*my)
		}
	}
	return out, nil
}

// readBlock reads one block's coefficients and keeps, dequantized, those
// below frequency n in both directions (coef[v*n+u]).
func (d *decoder) readBlock(b *bitReader, c *component, n int, coef *[64]float32) error {
	q := &d.quant[c.tq]
	clear(coef[:n*n])
	s, ok := b.decode(&d.dc[c.td])
	if !ok || s > 11 {
		return errDamaged("a bad DC code")
	}
	c.pred += int(b.extend(uint(s)))
	coef[0] = float32(c.pred) * float32(q[0])
	ac := &d.ac[c.ta]
	keep := &keepAt[n]
	for k := 1; k < 64; k++ {
		if b.n < 16 {
			b.fill()
		}
		if fa := ac.fastAC[(b.acc>>(b.n-lookBits))&(1<<lookBits-1)]; fa != 0 {
			b.n -= uint(fa & 15)
			k += int(fa>>4) & 15
			if k > 63 {
				return errDamaged("an AC run past the end of a block")
			}
			if i := keep[k]; i >= 0 {
				coef[i] = float32(fa>>8) * float32(q[k])
			}
			continue
		}
		rs, ok := b.decode(ac)
		if !ok {
			return errDamaged("a bad AC code")
		}
		r, size := int(rs>>4), uint(rs&15)
		if size == 0 {
			if r != 15 {
				break // the end of the block
			}
			k += 15
			continue
		}
		k += r
		if k > 63 {
			return errDamaged("an AC run past the end of a block")
		}
		v := b.extend(size)
		if i := keep[k]; i >= 0 {
			coef[i] = float32(v) * float32(q[k])
		}
	}
	return nil
}

// idct writes the n×n reduced block of coef to dst, rows stride apart.
func idct(dst []byte, stride, n int, coef *[64]float32) {
	if n == 1 {
		dst[0] = clamp(coef[0]/8 + 128)
		return
	}
	m := basis[n]
	var tmp [16]float32 // tmp[v*n+x]: each row of frequencies, by column
	for v := range n {
		for x := range n {
			var sum float32
			for u := range n {
				sum += m[x*n+u] * coef[v*n+u]
			}
			tmp[v*n+x] = sum
		}
	}
	for y := range n {
		row := dst[y*stride : y*stride+n]
		for x := range n {
			var sum float32
			for v := range n {
				sum += m[y*n+v] * tmp[v*n+x]
			}
			row[x] = clamp(sum + 128)
		}
	}
}

// clamp rounds v to the nearest sample value.
func clamp(v float32) byte {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return byte(v + 0.5)
}
