package formats_test

import (
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/hostile"
)

// TestCompositeCountsEveryImagesPixels: 32 overlays of a 380 KB PNG of
// 49 megapixels each pass the per-image cap one by one and needed about
// 13 GB together; they are refused before any is decoded.
func TestCompositeCountsEveryImagesPixels(t *testing.T) {
	e := env(t, "sample.png")
	big := hostile.BigBlankPNG(7000, 7000)
	if _, err := e.Space.WriteBytes(ctx, "big.png", big, files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	overlays := make([]formats.Overlay, 32)
	for i := range overlays {
		overlays[i] = formats.Overlay{Image: "big.png"}
	}
	_, err := formats.Composite(ctx, e, formats.CompositeArgs{File: "sample.png", Overlays: overlays})
	if files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "megapixels together") {
		t.Fatalf("%d KB overlays: %v", len(big)>>10, err)
	}
	if _, err := formats.Composite(ctx, e, formats.CompositeArgs{File: "sample.png", Overlays: overlays[:1]}); err != nil {
		t.Fatalf("one overlay: %v", err)
	}
}
