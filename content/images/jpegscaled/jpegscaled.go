// Package jpegscaled decodes a baseline JPEG at a half, a quarter or an
// eighth of its size, straight from each block's lowest frequencies, as
// libjpeg's scaled decoding and libvips' shrink-on-load do: an 8×8 block
// becomes 4×4, 2×2 or 1×1 pixels by an inverse DCT of its 16, 4 or 1
// lowest coefficients, so a photo made smaller is never decoded whole.
//
// It reads what cameras and most encoders write: sequential Huffman
// coding, 8-bit samples, grey or YCbCr in one interleaved scan, with or
// without restart markers. Anything else (progressive, arithmetic coding,
// 12-bit, CMYK or RGB, several scans) is ErrUnsupported, and the caller
// decodes it whole with image/jpeg. A damaged file is an error, never a
// guess.
//
// It imports nothing of convfiles.
package jpegscaled

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
)

// ErrUnsupported is a JPEG this package does not decode; image/jpeg does.
var ErrUnsupported = errors.New("jpegscaled: not a baseline JPEG in one scan")

// errDamaged is a JPEG whose structure is broken.
func errDamaged(format string, args ...any) error {
	return fmt.Errorf("jpegscaled: damaged JPEG: "+format, args...)
}

// component is one colour component of the frame.
type component struct {
	id     byte
	h, v   int // sampling factors
	tq     int // quantization table
	td, ta int // DC and AC Huffman tables of the scan
	pred   int // the DC predictor
	plane  []byte
	stride int
}

// decoder holds what the markers before the scan said.
type decoder struct {
	data          []byte
	scale         int
	maxPixels     int64
	width, height int
	comps         []component
	maxH, maxV    int          // the largest sampling factors
	quant         [4][64]int32 // in zigzag order
	haveQuant     [4]bool
	dc, ac        [4]huffman
	restart       int  // MCUs between restart markers; 0: none
	adobeRGB      bool // an Adobe marker says the components are RGB
	scanStart     int  // where the scan's coded data begins
}

// Decode decodes data at 1/scale of its size (scale 2, 4 or 8; the size
// rounded up), as image.YCbCr or image.Gray. A frame of more than
// maxPixels pixels is refused before anything is allocated.
func Decode(data []byte, scale int, maxPixels int64) (image.Image, error) {
	if scale != 2 && scale != 4 && scale != 8 {
		return nil, fmt.Errorf("jpegscaled: scale %d is not 2, 4 or 8", scale)
	}
	d := &decoder{data: data, scale: scale, maxPixels: maxPixels}
	if err := d.readHeaders(); err != nil {
		return nil, err
	}
	return d.decodeScan()
}

// readHeaders reads the markers up to the first scan.
func (d *decoder) readHeaders() error {
	data := d.data
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return errDamaged("no start of image")
	}
	pos := 2
	for {
		// A marker is 0xFF, any fill 0xFF bytes, then its code.
		if pos >= len(data) || data[pos] != 0xFF {
			return errDamaged("expected a marker at byte %d", pos)
		}
		for pos < len(data) && data[pos] == 0xFF {
			pos++
		}
		if pos >= len(data) {
			return errDamaged("the file ends inside a marker")
		}
		code := data[pos]
		pos++
		if code == 0xD8 || code >= 0xD0 && code <= 0xD7 || code == 0x01 {
			continue // no length: SOI again, a stray RST, TEM
		}
		if code == 0xD9 {
			return errDamaged("the image ends before its scan")
		}
		if pos+2 > len(data) {
			return errDamaged("the file ends inside a marker's length")
		}
		n := int(binary.BigEndian.Uint16(data[pos:]))
		if n < 2 || pos+n > len(data) {
			return errDamaged("a marker's length (%d) runs past the file", n)
		}
		seg := data[pos+2 : pos+n]
		pos += n
		var err error
		switch {
		case code == 0xDB:
			err = d.readQuant(seg)
		case code == 0xC4:
			err = d.readHuffman(seg)
		case code == 0xDD:
			if len(seg) != 2 {
				return errDamaged("a restart interval of %d bytes", len(seg))
			}
			d.restart = int(binary.BigEndian.Uint16(seg))
		case code == 0xC0 || code == 0xC1:
			err = d.readFrame(seg)
		case code >= 0xC2 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC:
			return ErrUnsupported // progressive, lossless, hierarchical or arithmetic
		case code == 0xEE:
			d.readAdobe(seg)
		case code == 0xDA:
			d.scanStart = pos
			return d.readScanHeader(seg)
		}
		if err != nil {
			return err
		}
	}
}

// readAdobe notes an Adobe marker that says the three components are RGB,
// not YCbCr.
func (d *decoder) readAdobe(seg []byte) {
	if len(seg) >= 12 && string(seg[:5]) == "Adobe" && seg[11] == 0 {
		d.adobeRGB = true
	}
}

// readQuant reads one or more quantization tables.
func (d *decoder) readQuant(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, int(seg[0]&15)
		if tq > 3 || pq > 1 {
			return errDamaged("a quantization table %d of precision %d", tq, pq)
		}
		size := 64 << pq
		if len(seg) < 1+size {
			return errDamaged("a short quantization table")
		}
		for i := range 64 {
			if pq == 0 {
				d.quant[tq][i] = int32(seg[1+i])
			} else {
				d.quant[tq][i] = int32(binary.BigEndian.Uint16(seg[1+2*i:]))
			}
		}
		d.haveQuant[tq] = true
		seg = seg[1+size:]
	}
	return nil
}
