package images

import (
	"image"
	"math"
	"testing"

	"github.com/disintegration/imaging"
)

// photoYCbCr is a photo-like YCbCr image: smooth gradients, detail a
// few pixels wide and colour, in the given chroma subsampling.
func photoYCbCr(w, h int, ratio image.YCbCrSubsampleRatio) *image.YCbCr {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), ratio)
	for y := range h {
		for x := range w {
			img.Y[img.YOffset(x, y)] = uint8(min(max(20+(x*215/w+y*215/h)/2+int(20*math.Sin(float64(x+2*y)/9)), 0), 255))
			ci := img.COffset(x, y)
			img.Cb[ci], img.Cr[ci] = uint8(128+50*math.Sin(float64(x)/7)), uint8(128+50*math.Cos(float64(y)/5))
		}
	}
	return img
}

// TestShrinkingFirstLooksTheSame: a photo shrunk by whole blocks before
// Lanczos resampling differs from one resampled from its full size by
// less than two levels in 255 on average, in every chroma subsampling
// and for a photo cut from a larger one (its rectangle not at 0,0).
func TestShrinkingFirstLooksTheSame(t *testing.T) {
	for name, img := range map[string]image.Image{
		"4:2:0": photoYCbCr(1600, 1200, image.YCbCrSubsampleRatio420),
		"4:4:4": photoYCbCr(1600, 1200, image.YCbCrSubsampleRatio444),
		"4:2:2": photoYCbCr(1600, 1200, image.YCbCrSubsampleRatio422),
		"4:4:0": photoYCbCr(1600, 1200, image.YCbCrSubsampleRatio440),
		"4:1:1": photoYCbCr(1600, 1200, image.YCbCrSubsampleRatio411),
		"cut":   photoYCbCr(1700, 1300, image.YCbCrSubsampleRatio420).SubImage(image.Rect(50, 50, 1650, 1250)),
	} {
		shrunk := shrinkFor(img, 400, 300)
		if shrunk.Bounds().Dx() != 800 || shrunk.Bounds().Dy() != 600 {
			t.Fatalf("%s: shrunk to %v, want 800×600 (twice the size asked for)", name, shrunk.Bounds())
		}
		fast := imaging.Resize(shrunk, 400, 300, imaging.Lanczos)
		full := imaging.Resize(img, 400, 300, imaging.Lanczos)
		var sum, worst float64
		for i := range fast.Pix {
			d := math.Abs(float64(fast.Pix[i]) - float64(full.Pix[i]))
			sum += d
			worst = max(worst, d)
		}
		if mean := sum / float64(len(fast.Pix)); mean > 1 || worst > 6 {
			t.Errorf("%s: differs by %.2f levels on average, %v at most", name, mean, worst)
		}
	}
	small := photoYCbCr(600, 450, image.YCbCrSubsampleRatio420)
	if shrinkFor(small, 400, 300) != image.Image(small) {
		t.Error("an image less than three times the size asked for was shrunk")
	}
}
