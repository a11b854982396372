package images

import (
	"image"
	"image/color"

	"github.com/disintegration/imaging"

	"convfiles/content"
)

// Fit says how Resize fills a width × height box when both are given.
type Fit string

// The fits, as sharp and CSS's object-fit name them.
const (
	// Cover keeps the aspect ratio and fills the box, cropping what
	// overflows around the center (the default).
	Cover Fit = "cover"
	// Contain keeps the aspect ratio and letterboxes the image inside the
	// box with transparent bands: the result is exactly the box.
	Contain Fit = "contain"
	// Fill stretches the image to the box, ignoring the aspect ratio.
	Fill Fit = "fill"
	// Inside keeps the aspect ratio and shrinks or grows the image until
	// it fits in the box: the result may be smaller than the box.
	Inside Fit = "inside"
)

// ParseFit reads a fit name; "" is Cover.
func ParseFit(s string) (Fit, error) {
	switch Fit(s) {
	case "":
		return Cover, nil
	case Cover, Contain, Fill, Inside:
		return Fit(s), nil
	}
	return "", content.Refuse(content.ErrBadRequest, "unknown fit %q: use cover, contain, fill or inside", s)
}

// Resize scales img to width × height with the fit. A width or height of 0
// keeps the aspect ratio from the other one. Lanczos resampling is used,
// as sharp does.
func Resize(img image.Image, width, height int, fit Fit) (image.Image, error) {
	if width < 0 || height < 0 || width == 0 && height == 0 {
		return nil, content.Refuse(content.ErrBadRequest, "give a width, a height or both, as positive numbers of pixels (got %d×%d)", width, height)
	}
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	b := img.Bounds()
	if width == 0 || height == 0 {
		w, h := scaled(b.Dx(), b.Dy(), width, height)
		if err := checkSize(w, h); err != nil {
			return nil, err
		}
		return imaging.Resize(shrinkFor(img, w, h), w, h, imaging.Lanczos), nil
	}
	switch fit {
	case Fill:
		return imaging.Resize(shrinkFor(img, width, height), width, height, imaging.Lanczos), nil
	case Inside:
		w, h := inside(b.Dx(), b.Dy(), width, height)
		return imaging.Resize(shrinkFor(img, w, h), w, h, imaging.Lanczos), nil
	case Contain:
		w, h := inside(b.Dx(), b.Dy(), width, height)
		inner := imaging.Resize(shrinkFor(img, w, h), w, h, imaging.Lanczos)
		canvas := imaging.New(width, height, color.NRGBA{})
		return imaging.PasteCenter(canvas, inner), nil
	}
	// Cover scales the whole image until it covers the box, then crops.
	s := max(float64(width)/float64(b.Dx()), float64(height)/float64(b.Dy()))
	cover := shrinkFor(img, int(float64(b.Dx())*s+0.5), int(float64(b.Dy())*s+0.5))
	return imaging.Fill(cover, width, height, imaging.Center, imaging.Lanczos), nil
}

// FitWithin shrinks img, keeping its aspect ratio, until it is at most
// maxWidth × maxHeight (0: no bound); a smaller image is returned as is.
func FitWithin(img image.Image, maxWidth, maxHeight int) image.Image {
	b := img.Bounds()
	if maxWidth <= 0 {
		maxWidth = b.Dx()
	}
	if maxHeight <= 0 {
		maxHeight = b.Dy()
	}
	if b.Dx() <= maxWidth && b.Dy() <= maxHeight {
		return img
	}
	w, h := inside(b.Dx(), b.Dy(), maxWidth, maxHeight)
	return imaging.Resize(shrinkFor(img, w, h), w, h, imaging.Lanczos)
}

// inside returns the largest size with w:h's aspect ratio within bw × bh.
func inside(w, h, bw, bh int) (int, int) {
	if w*bh > h*bw { // wider than the box: the width binds
		return bw, max(1, int(float64(h)*float64(bw)/float64(w)+0.5))
	}
	return max(1, int(float64(w)*float64(bh)/float64(h)+0.5)), bh
}

// scaled completes a size with one side 0 from the aspect ratio of w × h.
func scaled(w, h, width, height int) (int, int) {
	if width == 0 {
		return max(1, int(float64(w)*float64(height)/float64(h)+0.5)), height
	}
	return width, max(1, int(float64(h)*float64(width)/float64(w)+0.5))
}

func checkSize(w, h int) error {
	if w > MaxSide || h > MaxSide || int64(w)*int64(h) > MaxPixels {
		return content.Refuse(content.ErrTooLarge, "%d×%d is larger than convfiles makes images (at most %d pixels a side and %d megapixels)",
			w, h, MaxSide, MaxPixels/1_000_000)
	}
	return nil
}

// Region is a rectangle of pixels: its top-left corner and its size.
type Region struct {
	Left   int `json:"left"`
	Top    int `json:"top"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Crop cuts the region out of img. The region must lie inside the image.
func Crop(img image.Image, r Region) (image.Image, error) {
	b := img.Bounds()
	if r.Width <= 0 || r.Height <= 0 || r.Left < 0 || r.Top < 0 || r.Left+r.Width > b.Dx() || r.Top+r.Height > b.Dy() {
		return nil, content.Refuse(content.ErrBadRequest,
			"the region left %d, top %d, %d×%d does not lie inside the %d×%d image: left+width and top+height must stay within it, with positive width and height",
			r.Left, r.Top, r.Width, r.Height, b.Dx(), b.Dy())
	}
	return imaging.Crop(img, image.Rect(r.Left, r.Top, r.Left+r.Width, r.Top+r.Height).Add(b.Min)), nil
}

// Layer is one image laid over another.
type Layer struct {
	Image     image.Image
	Left, Top int     // where its top-left corner goes on the base
	Opacity   float64 // 0–1; 1 is opaque
}

// Composite lays the layers, in order, over base. Parts of a layer outside
// the base are cut off.
func Composite(base image.Image, layers []Layer) (image.Image, error) {
	out := imaging.Clone(base)
	for i, l := range layers {
		if l.Opacity < 0 || l.Opacity > 1 {
			return nil, content.Refuse(content.ErrBadRequest, "overlay %d: the opacity must be between 0 and 1, not %g", i+1, l.Opacity)
		}
		out = imaging.Overlay(out, l.Image, image.Pt(l.Left, l.Top), l.Opacity)
	}
	return out, nil
}
