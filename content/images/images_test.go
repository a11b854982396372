package images_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
	"time"

	xwebp "golang.org/x/image/webp"

	"convfiles/content"
	"convfiles/content/images"
	"convfiles/internal/samples"
)

// decodeWith reads an encoded image with the standard decoders, not with
// the encoder that wrote it.
func decodeWith(t *testing.T, f images.Format, data []byte) image.Image {
	t.Helper()
	dec := map[images.Format]func([]byte) (image.Image, error){
		images.PNG:  func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) },
		images.JPEG: func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) },
		images.GIF:  func(b []byte) (image.Image, error) { return gif.Decode(bytes.NewReader(b)) },
		images.WebP: func(b []byte) (image.Image, error) { return xwebp.Decode(bytes.NewReader(b)) },
	}[f]
	img, err := dec(data)
	if err != nil {
		t.Fatalf("the %s written does not decode: %v", f, err)
	}
	return img
}

func TestConvertsBetweenFormats(t *testing.T) {
	for _, in := range []string{"sample.png", "sample.jpg", "sample.gif", "sample.webp"} {
		img, info, err := images.Decode(samples.Read(t, in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		for _, f := range []images.Format{images.PNG, images.JPEG, images.WebP, images.GIF} {
			var buf bytes.Buffer
			if err := images.Encode(&buf, img, f, images.EncodeOptions{}); err != nil {
				t.Fatalf("%s to %s: %v", in, f, err)
			}
			if got := images.Sniff(buf.Bytes()); got != f {
				t.Errorf("%s to %s: the bytes are %q", in, f, got)
			}
			out := decodeWith(t, f, buf.Bytes())
			if b := out.Bounds(); b.Dx() != info.Width || b.Dy() != info.Height {
				t.Errorf("%s to %s: %v, want %d×%d", in, f, b, info.Width, info.Height)
			}
		}
	}
}

func TestResizeFits(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 400, 200))
	for _, c := range []struct {
		w, h   int
		fit    images.Fit
		ww, wh int
	}{
		{100, 0, images.Cover, 100, 50},
		{0, 50, images.Cover, 100, 50},
		{100, 100, images.Cover, 100, 100},
		{100, 100, images.Contain, 100, 100},
		{100, 100, images.Fill, 100, 100},
		{100, 100, images.Inside, 100, 50},
	} {
		out, err := images.Resize(img, c.w, c.h, c.fit)
		if err != nil {
			t.Fatal(err)
		}
		if b := out.Bounds(); b.Dx() != c.ww || b.Dy() != c.wh {
			t.Errorf("%d×%d %s: %v, want %d×%d", c.w, c.h, c.fit, b, c.ww, c.wh)
		}
	}
	if _, err := images.Resize(img, 30000, 0, images.Cover); !errors.Is(err, content.ErrTooLarge) {
		t.Errorf("a 30000-pixel-wide result: %v", err)
	}
	if _, err := images.Crop(img, images.Region{Left: 350, Top: 0, Width: 100, Height: 10}); !errors.Is(err, content.ErrBadRequest) {
		t.Errorf("a crop past the edge: %v", err)
	}
}

// withOrientation adds an EXIF APP1 segment saying orientation o to a JPEG.
func withOrientation(jpg []byte, o uint16) []byte {
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01")
	entry := make([]byte, 12)
	binary.BigEndian.PutUint16(entry[0:], 0x0112)
	binary.BigEndian.PutUint16(entry[2:], 3) // SHORT
	binary.BigEndian.PutUint32(entry[4:], 1)
	binary.BigEndian.PutUint16(entry[8:], o)
	tiff = append(append(tiff, entry...), 0, 0, 0, 0)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(app1[2:], uint16(len(seg)+2))
	return append(append(append([]byte{}, jpg[:2]...), append(app1, seg...)...), jpg[2:]...)
}

func TestEXIFOrientationIsApplied(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for x := range 40 {
		for y := range 4 {
			src.Set(x, y, color.RGBA{255, 0, 0, 255}) // a red top edge
		}
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, src, &jpeg.Options{Quality: 95})
	rotated := withOrientation(buf.Bytes(), 6) // the camera was turned: show it 90° clockwise
	info, err := images.Probe(rotated)
	if err != nil || info.Width != 20 || info.Height != 40 || info.Orientation != 6 {
		t.Fatalf("probe %+v %v", info, err)
	}
	img, _, err := images.Decode(rotated)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 20 || b.Dy() != 40 {
		t.Fatalf("decoded %v", b)
	}
	// turned clockwise, the red top edge is now the right edge
	if r, _, _, _ := img.At(18, 20).RGBA(); r>>8 < 200 {
		t.Errorf("the right edge is not red: %v", img.At(18, 20))
	}
}

// TestEveryEXIFOrientation: each of the eight EXIF orientations puts a
// photo's red top edge where the camera saw it; a value outside 1–8 leaves
// the image as stored.
func TestEveryEXIFOrientation(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for x := range 40 {
		for y := range 4 {
			src.Set(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, src, &jpeg.Options{Quality: 95})
	for o, edge := range map[int]string{1: "top", 2: "top", 3: "bottom", 4: "bottom", 5: "left", 6: "right", 7: "right", 8: "left", 9: "top"} {
		img, _, err := images.Decode(withOrientation(buf.Bytes(), uint16(o)))
		if err != nil {
			t.Fatalf("orientation %d: %v", o, err)
		}
		b := img.Bounds()
		turned := o >= 5 && o <= 8
		if turned != (b.Dx() == 20 && b.Dy() == 40) {
			t.Errorf("orientation %d: decoded %v", o, b.Size())
			continue
		}
		w, h := b.Dx(), b.Dy()
		at := map[string]image.Point{"top": {w / 2, 1}, "bottom": {w / 2, h - 2}, "left": {1, h / 2}, "right": {w - 2, h / 2}}
		for name, p := range at {
			r, g, _, _ := img.At(b.Min.X+p.X, b.Min.Y+p.Y).RGBA()
			if red := r>>8 > 200 && g>>8 < 60; red != (name == edge) {
				t.Errorf("orientation %d: the %s edge is red: %v, want the red edge at the %s", o, name, red, edge)
			}
		}
	}
}

// pngClaiming is a PNG header that claims w×h pixels and holds none.
func pngClaiming(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	out := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d")
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

func TestDecompressionBombIsRefusedFromItsHeader(t *testing.T) {
	start := time.Now()
	_, _, err := images.Decode(pngClaiming(100_000, 100_000))
	if !errors.Is(err, content.ErrTooLarge) {
		t.Fatalf("a PNG claiming 10 gigapixels: %v", err)
	}
	t.Logf("refused in %v: %v", time.Since(start), err)
	for name, data := range map[string][]byte{
		"truncated png": samples.Read(t, "sample.png")[:60],
		"not an image":  samples.Read(t, "random.bin"),
	} {
		if _, _, err := images.Decode(data); err == nil {
			t.Errorf("%s decoded", name)
		}
	}
}
