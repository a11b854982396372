package formats_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"convfiles/content/images"
	"convfiles/formats"
)

// BenchmarkThumbnail4000 is the web page's thumbnail of a 12 MP photo
// (ToBase64 into 256×256: a JPEG decoded at an eighth of its size), the
// same from a whole decode (what it cost before), and vipsthumbnail.
func BenchmarkThumbnail4000(b *testing.B) {
	path := benchInput(b, "photo-4000x3000.jpg", func(p string) error { return writePhoto(p, 4000, 3000) })
	b.Run("convfiles", func(b *testing.B) {
		e := benchEnv(b, path, "photo.jpg")
		measure(b, func() {
			if out, err := formats.ToBase64(ctx, e, formats.Base64Args{File: "photo.jpg", MaxWidth: 256, MaxHeight: 256}); err != nil || out.Width != 256 {
				b.Fatalf("thumbnail: %d wide, %v", out.Width, err)
			}
		})
	})
	b.Run("whole-decode", func(b *testing.B) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		measure(b, func() {
			img, _, err := images.Decode(data)
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			if err := images.Encode(&buf, images.FitWithin(img, 256, 256), images.JPEG, images.EncodeOptions{}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("vipsthumbnail", func(b *testing.B) {
		if _, err := exec.LookPath("vipsthumbnail"); err != nil {
			b.Skip("vipsthumbnail is the baseline here: install it (Debian: libvips-tools)")
		}
		out := filepath.Join(b.TempDir(), "thumb.jpg")
		measure(b, func() {
			if msg, err := exec.Command("vipsthumbnail", path, "-s", "256", "-o", out+"[Q=85]").CombinedOutput(); err != nil {
				b.Fatalf("vipsthumbnail: %v %s", err, msg)
			}
		})
	})
}
