package jpegscaled

import (
	"encoding/binary"
	"image"
)

// readFrame reads a baseline frame header: the size and the components
// with their sampling factors.
func (d *decoder) readFrame(seg []byte) error {
	if d.comps != nil {
		return errDamaged("two frame headers")
	}
	if len(seg) < 6 {
		return errDamaged("a short frame header")
	}
	if seg[0] != 8 {
		return ErrUnsupported // 12-bit samples
	}
	d.height = int(binary.BigEndian.Uint16(seg[1:]))
	d.width = int(binary.BigEndian.Uint16(seg[3:]))
	n := int(seg[5])
	if d.height == 0 {
		return ErrUnsupported // the height comes later, in a DNL marker
	}
	if d.width == 0 {
		return errDamaged("a frame 0 pixels wide")
	}
	if int64(d.width)*int64(d.height) > d.maxPixels {
		return errDamaged("a frame of %d×%d pixels, more than allowed", d.width, d.height)
	}
	if n != 1 && n != 3 {
		return ErrUnsupported // CMYK, or something rarer
	}
	if len(seg) != 6+3*n {
		return errDamaged("a frame header of %d bytes for %d components", len(seg), n)
	}
	d.comps = make([]component, n)
	for i := range d.comps {
		c := &d.comps[i]
		c.id, c.h, c.v, c.tq = seg[6+3*i], int(seg[7+3*i]>>4), int(seg[7+3*i]&15), int(seg[8+3*i])
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return errDamaged("component %d has sampling %d×%d and table %d", i, c.h, c.v, c.tq)
		}
	}
	if n == 1 {
		// One component is one block per MCU, whatever its factors say.
		d.comps[0].h, d.comps[0].v = 1, 1
	}
	d.maxH, d.maxV = 1, 1
	for _, c := range d.comps {
		d.maxH, d.maxV = max(d.maxH, c.h), max(d.maxV, c.v)
	}
	if n == 3 && d.ratio() < 0 {
		return ErrUnsupported // a sampling image.YCbCr cannot hold
	}
	return nil
}

// ratio is the frame's chroma subsampling as image.YCbCr names it, -1
// when it has no name there: both chroma components must be sampled once
// per MCU.
func (d *decoder) ratio() image.YCbCrSubsampleRatio {
	y, cb, cr := d.comps[0], d.comps[1], d.comps[2]
	if cb.h != 1 || cb.v != 1 || cr.h != 1 || cr.v != 1 {
		return -1
	}
	switch [2]int{y.h, y.v} {
	case [2]int{1, 1}:
		return image.YCbCrSubsampleRatio444
	case [2]int{2, 1}:
		return image.YCbCrSubsampleRatio422
	case [2]int{2, 2}:
		return image.YCbCrSubsampleRatio420
	case [2]int{1, 2}:
		return image.YCbCrSubsampleRatio440
	case [2]int{4, 1}:
		return image.YCbCrSubsampleRatio411
	case [2]int{4, 2}:
		return image.YCbCrSubsampleRatio410
	}
	return -1
}

// readScanHeader reads the header of the scan: it must hold every
// component, with the whole spectrum at full precision.
func (d *decoder) readScanHeader(seg []byte) error {
	if d.comps == nil {
		return errDamaged("a scan before the frame header")
	}
	if d.adobeRGB && len(d.comps) == 3 {
		return ErrUnsupported
	}
	if len(seg) < 1 || len(seg) != 4+2*int(seg[0]) {
		return errDamaged("a scan header of %d bytes", len(seg))
	}
	if int(seg[0]) != len(d.comps) {
		return ErrUnsupported // one scan per component
	}
	for i := range d.comps {
		id, tables := seg[1+2*i], seg[2+2*i]
		c := &d.comps[i]
		if id != c.id {
			return ErrUnsupported // components in another order
		}
		c.td, c.ta = int(tables>>4), int(tables&15)
		if c.td > 3 || c.ta > 3 || !d.dc[c.td].ok || !d.ac[c.ta].ok {
			return errDamaged("component %d names a Huffman table not given", i)
		}
		if !d.haveQuant[c.tq] {
			return errDamaged("component %d names a quantization table not given", i)
		}
	}
	rest := seg[1+2*len(d.comps):]
	if rest[0] != 0 || rest[1] != 63 || rest[2] != 0 {
		return ErrUnsupported // a spectral selection: progressive
	}
	return nil
}
