package images

import (
	"bytes"
	"encoding/binary"
	"image/color"
)

// exifOrientation returns the EXIF orientation tag (1–8) of a JPEG or a
// TIFF, 1 when there is none or it cannot be read. Only the first IFD is
// looked at, and every offset is checked against the data's length.
func exifOrientation(data []byte) int {
	if bytes.HasPrefix(data, []byte("\xff\xd8")) {
		data = jpegEXIF(data)
	}
	if o := tiffOrientation(data); o >= 1 && o <= 8 {
		return o
	}
	return 1
}

// jpegEXIF returns the TIFF structure inside a JPEG's APP1 Exif segment.
func jpegEXIF(data []byte) []byte {
	p := 2
	for p+4 <= len(data) && data[p] == 0xff {
		marker := data[p+1]
		if marker == 0xda || marker == 0xd9 { // start of scan, end of image
			return nil
		}
		n := int(binary.BigEndian.Uint16(data[p+2:]))
		if n < 2 || p+2+n > len(data) {
			return nil
		}
		seg := data[p+4 : p+2+n]
		if marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return seg[6:]
		}
		p += 2 + n
	}
	return nil
}

func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[ifd:]))
	for i := range count {
		e := ifd + 2 + 12*i
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 { // Orientation, a SHORT
			return int(bo.Uint16(t[e+8:]))
		}
	}
	return 0
}

// describeModel names a color model and its bits per channel.
func describeModel(m color.Model) (string, int) {
	switch m {
	case color.RGBAModel, color.NRGBAModel:
		return "rgba", 8
	case color.RGBA64Model, color.NRGBA64Model:
		return "rgba", 16
	case color.GrayModel:
		return "gray", 8
	case color.Gray16Model:
		return "gray", 16
	case color.YCbCrModel:
		return "rgb", 8
	case color.CMYKModel:
		return "cmyk", 8
	case color.AlphaModel, color.Alpha16Model:
		return "alpha", 8
	}
	if _, ok := m.(color.Palette); ok {
		return "paletted", 8
	}
	return "rgb", 8
}
