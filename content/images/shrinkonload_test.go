package images_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"testing"

	"convfiles/content/images"

	"github.com/disintegration/imaging"
)

// photo is a 1600×1200 JPEG as a camera's photo looks: smooth
// gradients, detail a few pixels wide, and colour.
func photo(t *testing.T) []byte {
	t.Helper()
	src := image.NewYCbCr(image.Rect(0, 0, 1600, 1200), image.YCbCrSubsampleRatio420)
	for y := range 1200 {
		for x := range 1600 {
			src.Y[src.YOffset(x, y)] = uint8(20 + (x*215/1600+y*215/1200)/2 + int(20*math.Sin(float64(x+2*y)/9)))
			ci := src.COffset(x, y)
			src.Cb[ci], src.Cr[ci] = uint8(128+50*math.Sin(float64(x)/7)), uint8(128+50*math.Cos(float64(y)/5))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// difference is how far b is from a, two images of one size: the mean
// and the largest difference of a colour channel, in levels of 255.
func difference(a, b image.Image) (mean, worst float64) {
	r := a.Bounds()
	var sum float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			q := color.NRGBAModel.Convert(b.At(x-r.Min.X+b.Bounds().Min.X, y-r.Min.Y+b.Bounds().Min.Y)).(color.NRGBA)
			for _, d := range []float64{float64(p.R) - float64(q.R), float64(p.G) - float64(q.G), float64(p.B) - float64(q.B)} {
				sum += math.Abs(d)
				worst = max(worst, math.Abs(d))
			}
		}
	}
	return sum / float64(3*r.Dx()*r.Dy()), worst
}

func TestALargeJPEGIsDecodedAtTheSizeItIsResizedTo(t *testing.T) {
	data := photo(t)
	for _, tc := range []struct {
		name          string
		width, height int
		fit           images.Fit
		decoded       image.Point // what the decode keeps: at least 1.5 times the result
		// How far the result may be from full-resolution resampling, in
		// levels of 255 (mean, worst). A result ten or sixteen times
		// smaller than the photo has detail finer than its pixels, which
		// every shortcut aliases a little (the block shrink of the whole
		// decode is 7.4 levels off at 160 wide, and 2.8 inside 100×100):
		// those bounds catch a wrong decode, not a choice of filter.
		mean, worst float64
	}{
		{"to 400 wide", 400, 0, images.Cover, image.Pt(800, 600), 1.5, 8},
		{"to 160 wide", 160, 0, images.Cover, image.Pt(400, 300), 6, 30},
		{"inside 100×100", 100, 100, images.Inside, image.Pt(200, 150), 8, 40},
		{"cover 500×100", 500, 100, images.Cover, image.Pt(800, 600), 1.5, 8},
		{"nearly whole", 1200, 0, images.Cover, image.Pt(1600, 1200), 0.5, 2},
	} {
		img, info, err := images.DecodeToResize(data, tc.width, tc.height, tc.fit)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if info.Width != 1600 || info.Height != 1200 || info.Format != images.JPEG {
			t.Errorf("%s: the file is described as %+v", tc.name, info)
		}
		if got := img.Bounds().Size(); got != tc.decoded {
			t.Errorf("%s: decoded %v, want %v", tc.name, got, tc.decoded)
		}
		// The result looks as one resampled from the whole decode at full
		// resolution does: the reference, dearer than either shortcut.
		whole, _, err := images.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := images.Resize(img, tc.width, tc.height, tc.fit)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		want := imaging.Resize(whole, got.Bounds().Dx(), got.Bounds().Dy(), imaging.Lanczos)
		if tc.fit == images.Cover && tc.height > 0 {
			want = imaging.Fill(whole, tc.width, tc.height, imaging.Center, imaging.Lanczos)
		}
		if mean, worst := difference(want, got); mean > tc.mean || worst > tc.worst {
			t.Errorf("%s: %.2f levels from full-resolution resampling on average, %v at most", tc.name, mean, worst)
		}
	}
}

func TestAShrunkDecodeIsTurnedAsItsEXIFSays(t *testing.T) {
	img, info, err := images.DecodeToResize(withOrientation(photo(t), 6), 150, 0, images.Cover)
	if err != nil {
		t.Fatal(err)
	}
	if info.Width != 1200 || info.Height != 1600 || img.Bounds().Size() != image.Pt(300, 400) {
		t.Fatalf("a photo turned by its EXIF: %+v, decoded %v; want 1200×1600 decoded at 300×400", info, img.Bounds().Size())
	}
}

// TestAFitWithOneBoundKeepsEnoughPixels: a bound of 0 or less is no
// bound, as FitWithin reads it, so a fit into a width alone still decodes
// enough pixels for it.
func TestAFitWithOneBoundKeepsEnoughPixels(t *testing.T) {
	data := photo(t)
	for _, box := range [][2]int{{300, 0}, {0, 225}, {300, -1}} {
		img, _, err := images.DecodeToFit(data, box[0], box[1])
		if err != nil {
			t.Fatal(err)
		}
		// 1600×1200 into 300 wide (or 225 high): a half, 800×600, is the
		// smallest that keeps 1.5 times the result (a quarter is 400 wide).
		if got := img.Bounds().Size(); got != image.Pt(800, 600) {
			t.Errorf("fit into %v: decoded %v, want 800×600", box, got)
		}
		if got := images.FitWithin(img, box[0], box[1]).Bounds().Size(); got != image.Pt(300, 225) {
			t.Errorf("fit into %v: fitted to %v, want 300×225", box, got)
		}
	}
}

func TestJPEGsTheScaledDecoderLeavesAreDecodedWhole(t *testing.T) {
	data, err := os.ReadFile("jpegscaled/testdata/progressive.jpg")
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := images.DecodeToFit(data, 20, 20)
	if err != nil || img.Bounds().Size() != image.Pt(161, 121) {
		t.Fatalf("a progressive JPEG: %v %v, want it decoded whole", img.Bounds().Size(), err)
	}
	if _, _, err := images.DecodeToResize(data[:len(data)/2], 20, 0, images.Cover); err == nil {
		t.Fatal("half a progressive JPEG was decoded")
	}
}
