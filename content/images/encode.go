package images

import (
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strings"

	"github.com/gen2brain/webp"

	"convfiles/content"
)

// EncodeOptions tunes Encode.
type EncodeOptions struct {
	// Quality is the JPEG or lossy WebP quality, 1–100; 0 means 85 for
	// JPEG and 80 for WebP.
	Quality int
	// Lossless writes a lossless WebP.
	Lossless bool
}

// ParseFormat reads a format name as a user writes it: "png", "JPEG",
// "jpg", ".webp" or "image/gif". Only formats Encode writes are accepted.
func ParseFormat(s string) (Format, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "image/"), ".")
	switch s {
	case "png":
		return PNG, nil
	case "jpeg", "jpg":
		return JPEG, nil
	case "webp":
		return WebP, nil
	case "gif":
		return GIF, nil
	}
	return "", content.Refuse(content.ErrBadRequest, "cannot write images as %q: use png, jpeg, webp or gif", s)
}

// Encode writes img in the format f. JPEG has no transparency: transparent
// pixels are laid on white, not on black.
func Encode(w io.Writer, img image.Image, f Format, o EncodeOptions) error {
	if o.Quality < 0 || o.Quality > 100 {
		return content.Refuse(content.ErrBadRequest, "the quality must be between 1 and 100, not %d", o.Quality)
	}
	switch f {
	case PNG:
		return (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(w, img)
	case JPEG:
		q := o.Quality
		if q == 0 {
			q = 85
		}
		return jpeg.Encode(w, flatten(img), &jpeg.Options{Quality: q})
	case WebP:
		q := o.Quality
		if q == 0 {
			q = 80
		}
		return webp.Encode(w, img, webp.Options{Quality: q, Lossless: o.Lossless, Method: 4})
	case GIF:
		return gif.Encode(w, img, &gif.Options{NumColors: 256})
	}
	return content.Refuse(content.ErrUnsupported, "cannot write %s images: use png, jpeg, webp or gif", f)
}

// flatten lays an image with transparency on white. An opaque NRGBA
// image is given to the encoder as the RGBA image its bytes also are
// (with every alpha 255 the two are the same), which image/jpeg converts
// a row at a time instead of a pixel at a time through At.
func flatten(img image.Image) image.Image {
	if opaque, ok := img.(interface{ Opaque() bool }); ok && opaque.Opaque() {
		if m, ok := img.(*image.NRGBA); ok {
			return &image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
		}
		return img
	}
	b := img.Bounds()
	out := image.NewRGBA(b)
	draw.Draw(out, b, image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(out, b, img, b.Min, draw.Over)
	return out
}
