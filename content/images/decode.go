// Package images reads, transforms and writes raster images for agents:
// their size and format, resize with the fits agents expect (cover, contain,
// fill, inside), crop, composite, and conversion between PNG, JPEG, WebP and
// GIF. EXIF orientation is applied, so a photo is the way up its camera
// meant. Untrusted images are checked before they are decoded: an image
// whose header claims more pixels than MaxPixels is refused without
// allocating them.
//
// It must never import files, the engine or a door: it works on bytes.
package images

import (
	"bytes"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strings"

	"convfiles/content"

	"github.com/disintegration/imaging"
	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	xwebp "golang.org/x/image/webp"
)

// MaxPixels is the largest image, in pixels, decoded by default: 50
// megapixels is 200 MB as RGBA. A header claiming more is a decompression
// bomb or a photo too large to work on here.
const MaxPixels = 50_000_000

// MaxSide is the largest width or height an operation may produce.
const MaxSide = 20_000

// Format is an image file format.
type Format string

// The formats images reads; Encode writes the first four.
const (
	PNG  Format = "png"
	JPEG Format = "jpeg"
	WebP Format = "webp"
	GIF  Format = "gif"
	BMP  Format = "bmp"
	TIFF Format = "tiff"
)

// MIME returns the format's media type.
func (f Format) MIME() string { return "image/" + string(f) }

// Extension returns the usual file extension, with its dot.
func (f Format) Extension() string {
	if f == JPEG {
		return ".jpg"
	}
	return "." + string(f)
}

type codec struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

// codecs are chosen by magic bytes, never through image.RegisterFormat,
// where two packages may claim one format: WebP is always decoded by the
// pure-Go x/image decoder.
var codecs = map[Format]codec{
	PNG:  {png.DecodeConfig, png.Decode},
	JPEG: {jpeg.DecodeConfig, jpeg.Decode},
	GIF:  {gif.DecodeConfig, gif.Decode},
	WebP: {xwebp.DecodeConfig, xwebp.Decode},
	BMP:  {bmp.DecodeConfig, bmp.Decode},
	TIFF: {tiff.DecodeConfig, tiff.Decode},
}

// Sniff names the format of data from its first bytes (content's magic-byte
// detection), "" when it is none of the formats images reads.
func Sniff(data []byte) Format {
	mt := content.SniffMIME("", data[:min(len(data), content.SniffLen)])
	f := Format(strings.TrimPrefix(mt, "image/"))
	if _, ok := codecs[f]; !ok || !strings.HasPrefix(mt, "image/") {
		return ""
	}
	return f
}

// Info describes an image as it is shown: width and height are after the
// EXIF orientation is applied.
type Info struct {
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Format      Format `json:"format"`
	MIME        string `json:"mime_type"`
	ColorModel  string `json:"color_model"` // "rgb", "rgba", "gray", "cmyk", "paletted"
	BitDepth    int    `json:"bit_depth"`   // bits per channel
	Orientation int    `json:"orientation"` // the EXIF orientation, 1 when none
}

// Probe reads an image's header: its format, size and color model,
// without decoding the pixels.
func Probe(data []byte) (Info, error) {
	f := Sniff(data)
	if f == "" {
		return Info{}, content.Refuse(content.ErrUnsupported,
			"this is not an image convfiles can read: PNG, JPEG, WebP, GIF, BMP and TIFF are supported")
	}
	var cfg image.Config
	err := content.Guard("the "+string(f)+" image", func() (err error) {
		cfg, err = codecs[f].config(bytes.NewReader(data))
		return err
	})
	if err != nil {
		return Info{}, damaged(f, err)
	}
	in := Info{Width: cfg.Width, Height: cfg.Height, Format: f, MIME: f.MIME(), Orientation: 1}
	in.ColorModel, in.BitDepth = describeModel(cfg.ColorModel)
	if f == JPEG || f == TIFF {
		in.Orientation = exifOrientation(data)
	}
	if in.Width <= 0 || in.Height <= 0 {
		return Info{}, content.Refuse(content.ErrDamaged, "the %s image has no pixels (%d×%d)", f, in.Width, in.Height)
	}
	if int64(in.Width)*int64(in.Height) > MaxPixels {
		return Info{}, content.Refuse(content.ErrTooLarge,
			"the image claims %d×%d pixels, more than the %d megapixels convfiles decodes", in.Width, in.Height, MaxPixels/1_000_000)
	}
	if in.Orientation >= 5 {
		in.Width, in.Height = in.Height, in.Width
	}
	return in, nil
}

// Decode decodes an image after Probe has accepted its header, and turns
// it the way its EXIF orientation says.
func Decode(data []byte) (image.Image, Info, error) {
	in, err := Probe(data)
	if err != nil {
		return nil, in, err
	}
	return decodeProbed(data, in)
}

// decodeProbed decodes data whole, in being what Probe said of it.
func decodeProbed(data []byte, in Info) (image.Image, Info, error) {
	var img image.Image
	err := content.Guard("the "+string(in.Format)+" image", func() (err error) {
		img, err = codecs[in.Format].decode(bytes.NewReader(data))
		return err
	})
	if err != nil {
		return nil, in, damaged(in.Format, err)
	}
	return orient(img, in.Orientation), in, nil
}

func damaged(f Format, err error) error {
	if _, ok := err.(*content.Refusal); ok {
		return err
	}
	return content.Refuse(content.ErrDamaged, "the %s image is damaged and cannot be read (%v)", f, err)
}

// orientations turns an image the way each EXIF orientation (2–8) says.
var orientations = [9]func(image.Image) *image.NRGBA{
	2: imaging.FlipH, 3: imaging.Rotate180, 4: imaging.FlipV, 5: imaging.Transpose,
	6: imaging.Rotate270, 7: imaging.Transverse, 8: imaging.Rotate90,
}

// orient applies an EXIF orientation (1–8; others leave the image as it is).
func orient(img image.Image, o int) image.Image {
	if o < 0 || o >= len(orientations) || orientations[o] == nil {
		return img
	}
	return orientations[o](img)
}
