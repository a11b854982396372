package images

import (
	"image"

	"convfiles/content"
	"convfiles/content/images/jpegscaled"
)

// DecodeToResize decodes data for Resize(img, width, height, fit): as
// Decode does, except that a large JPEG is decoded straight at a half, a
// quarter or an eighth of its size (see decodeShrunk).
func DecodeToResize(data []byte, width, height int, fit Fit) (image.Image, Info, error) {
	in, err := Probe(data)
	if err != nil {
		return nil, in, err
	}
	w, h := resampledSize(in.Width, in.Height, width, height, fit)
	return decodeShrunk(data, in, w, h)
}

// DecodeToFit decodes data for FitWithin(img, maxWidth, maxHeight), as
// DecodeToResize does.
func DecodeToFit(data []byte, maxWidth, maxHeight int) (image.Image, Info, error) {
	in, err := Probe(data)
	if err != nil {
		return nil, in, err
	}
	// As FitWithin reads its bounds: 0 or less is no bound.
	if maxWidth <= 0 {
		maxWidth = in.Width
	}
	if maxHeight <= 0 {
		maxHeight = in.Height
	}
	w, h := in.Width, in.Height
	if w > maxWidth || h > maxHeight {
		w, h = inside(w, h, maxWidth, maxHeight)
	}
	return decodeShrunk(data, in, w, h)
}

// resampledSize is the size Resize resamples an image of w × h to for
// width, height and fit: for cover, the whole image before it is cropped.
// A size it would refuse is returned as w × h: the decode is then whole
// and Resize says what is wrong.
func resampledSize(w, h, width, height int, fit Fit) (int, int) {
	switch {
	case width < 0 || height < 0 || width == 0 && height == 0:
		return w, h
	case width == 0 || height == 0:
		return scaled(w, h, width, height)
	}
	switch fit {
	case Fill:
		return width, height
	case Inside, Contain:
		return inside(w, h, width, height)
	}
	s := max(float64(width)/float64(w), float64(height)/float64(h))
	return int(float64(w)*s + 0.5), int(float64(h)*s + 0.5)
}

// decodeShrunk decodes a JPEG to be resampled to w × h (in its shown
// orientation) at the smallest of 1/2, 1/4 and 1/8 of its size that keeps
// at least 1.5 times w × h, so the resampling filter still does the last
// step, as libvips shrinks on load: the blocks' lowest frequencies are
// all that is decoded. Any other image, and a JPEG jpegscaled leaves to
// image/jpeg (progressive, CMYK, damaged), is decoded whole as Decode
// does, whose answer, refusals included, is the caller's.
func decodeShrunk(data []byte, in Info, w, h int) (image.Image, Info, error) {
	scale := 1
	for in.Format == JPEG && scale < 8 && 2*in.Width >= 3*w*2*scale && 2*in.Height >= 3*h*2*scale {
		scale *= 2
	}
	if scale > 1 {
		var img image.Image
		err := content.Guard("the jpeg image", func() (err error) {
			img, err = jpegscaled.Decode(data, scale, MaxPixels)
			return err
		})
		if err == nil {
			return orient(img, in.Orientation), in, nil
		}
	}
	return decodeProbed(data, in)
}
