package jpegscaled

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files in testdata are one picture (161×121, odd on both sides)
// written by libjpeg-turbo's cjpeg in each form: the chroma samplings
// (-sample), grey, restart markers every 5 blocks, optimized Huffman
// tables, and the forms this package leaves to image/jpeg.
var decoded = map[string]image.YCbCrSubsampleRatio{
	"s420.jpg": image.YCbCrSubsampleRatio420, "s422.jpg": image.YCbCrSubsampleRatio422,
	"s444.jpg": image.YCbCrSubsampleRatio444, "s440.jpg": image.YCbCrSubsampleRatio440,
	"s411.jpg": image.YCbCrSubsampleRatio411, "restart.jpg": image.YCbCrSubsampleRatio420,
	"optimized.jpg": image.YCbCrSubsampleRatio420, "gray.jpg": -1,
}

func read(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// boxAverage shrinks img by s, each pixel the mean of the s×s pixels it
// covers (fewer at the right and bottom edges): what a scaled decode
// approximates.
func boxAverage(img image.Image, s int) [][3]float64 {
	b := img.Bounds()
	w, h := (b.Dx()+s-1)/s, (b.Dy()+s-1)/s
	out := make([][3]float64, w*h)
	for y := range h {
		for x := range w {
			var sum [3]float64
			n := 0
			for yy := y * s; yy < min(y*s+s, b.Dy()); yy++ {
				for xx := x * s; xx < min(x*s+s, b.Dx()); xx++ {
					c := color.NRGBAModel.Convert(img.At(b.Min.X+xx, b.Min.Y+yy)).(color.NRGBA)
					sum[0], sum[1], sum[2] = sum[0]+float64(c.R), sum[1]+float64(c.G), sum[2]+float64(c.B)
					n++
				}
			}
			out[y*w+x] = [3]float64{sum[0] / float64(n), sum[1] / float64(n), sum[2] / float64(n)}
		}
	}
	return out
}

// psnr compares img with want, a box average of the same size.
func psnr(img image.Image, want [][3]float64) float64 {
	b := img.Bounds()
	var se float64
	for y := range b.Dy() {
		for x := range b.Dx() {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			w := want[y*b.Dx()+x]
			for i, v := range [3]uint8{c.R, c.G, c.B} {
				d := float64(v) - w[i]
				se += d * d
			}
		}
	}
	mse := se / float64(3*b.Dx()*b.Dy())
	return 10 * math.Log10(255*255/mse)
}

func TestAScaledDecodeIsTheWholeDecodeShrunk(t *testing.T) {
	for name, ratio := range decoded {
		data := read(t, name)
		whole, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(name, err)
		}
		for _, s := range []int{2, 4, 8} {
			img, err := Decode(data, s, 1<<30)
			if err != nil {
				t.Fatalf("%s at 1/%d: %v", name, s, err)
			}
			if got, want := img.Bounds(), image.Rect(0, 0, (161+s-1)/s, (121+s-1)/s); got != want {
				t.Fatalf("%s at 1/%d: %v, want %v", name, s, got, want)
			}
			switch m := img.(type) {
			case *image.YCbCr:
				if m.SubsampleRatio != ratio {
					t.Errorf("%s: sampled %v, want %v", name, m.SubsampleRatio, ratio)
				}
			case *image.Gray:
				if ratio != -1 {
					t.Errorf("%s: grey, want %v", name, ratio)
				}
			}
			// A smooth reconstruction sampled at the cells' centres is
			// not a box average, but close. Luma is compared on its own
			// (40 dB: about 2.5 levels in 255 at worst, typically much
			// less); the colours less strictly, since subsampled chroma
			// is shrunk by s from its own, coarser resolution.
			if p := psnr(luma(img), boxAverage(luma(whole), s)); p < 40 {
				t.Errorf("%s at 1/%d: luma %.1f dB from the whole decode shrunk, want at least 40", name, s, p)
			}
			if p := psnr(img, boxAverage(whole, s)); p < 28 {
				t.Errorf("%s at 1/%d: colours %.1f dB from the whole decode shrunk, want at least 28", name, s, p)
			}
		}
	}
}

// luma is the grey (Y) plane of a decoded image.
func luma(img image.Image) image.Image {
	if m, ok := img.(*image.YCbCr); ok {
		return &image.Gray{Pix: m.Y, Stride: m.YStride, Rect: m.Rect}
	}
	return img
}

func TestWhatItDoesNotReadIsLeftToImageJPEG(t *testing.T) {
	for _, name := range []string{"progressive.jpg", "arithmetic.jpg", "rgb.jpg", "oddchroma.jpg"} {
		if _, err := Decode(read(t, name), 2, 1<<30); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
}

func TestDamagedFilesAreErrors(t *testing.T) {
	data := read(t, "restart.jpg")
	scan := bytes.Index(data, []byte{0xFF, 0xDA})
	for name, bad := range map[string][]byte{
		"cut in the scan":         data[:scan+200],
		"cut in the headers":      data[:scan-10],
		"no restart marker":       bytes.Replace(data, []byte{0xFF, 0xD1}, []byte{0x12, 0x34}, 1),
		"not a JPEG":              []byte("GIF89a"),
		"a frame past the bounds": data,
	} {
		max := int64(1 << 30)
		if name == "a frame past the bounds" {
			max = 161*121 - 1
		}
		if img, err := Decode(bad, 2, max); err == nil || errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v (image %v), want a damaged file's error", name, err, img != nil)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for name := range decoded {
		f.Add(read(f, name), uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, s uint8) {
		scale := []int{2, 4, 8}[s%3]
		img, err := Decode(data, scale, 1<<20)
		if err != nil {
			return
		}
		// What it decodes, image/jpeg decodes too, to the same size.
		whole, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			return // image/jpeg is stricter about what follows the scan
		}
		b := whole.Bounds()
		if got, want := img.Bounds(), image.Rect(0, 0, (b.Dx()+scale-1)/scale, (b.Dy()+scale-1)/scale); got != want {
			t.Fatalf("decoded %v at 1/%d; image/jpeg decodes %v", got, scale, b)
		}
	})
}

// TestARunPastTheBlockEndIsDamage: AC codes whose runs carry the
// coefficient index past 63 (here a one-bit code for "15 zeros, then a
// one-bit value", sent five times) are a damaged block, refused, whether
// the run is read through the fast table or not.
func TestARunPastTheBlockEndIsDamage(t *testing.T) {
	var d decoder
	counts := [16]int{1}
	if err := d.dc[0].build(counts, []byte{0}); err != nil { // "0": a DC difference of 0
		t.Fatal(err)
	}
	for _, sym := range []byte{0xF1, 0xFA} { // run 15 with a 1-bit value (fast), a 10-bit one (not)
		if err := d.ac[0].build(counts, []byte{sym}); err != nil {
			t.Fatal(err)
		}
		c := &component{}
		var coef [64]float32
		b := &bitReader{data: make([]byte, 128)} // every code and value bit 0
		if err := d.readBlock(b, c, 4, &coef); err == nil || !strings.Contains(err.Error(), "past the end of a block") {
			t.Errorf("symbol %#x: %v, want a run past the end of the block refused", sym, err)
		}
	}
}
