package mcp_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// noisePNG is a PNG of random pixels: it barely compresses, so its size
// is about 3 bytes a pixel.
func noisePNG(t *testing.T, side int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range side {
		for x := range side {
			img.Set(x, y, color.NRGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMediaAnswersAreScaledUnderTheCap: file_read_media hands a vision
// model an image over the answer cap scaled down until it fits, says so,
// and a small image comes back as its own bytes.
func TestMediaAnswersAreScaledUnderTheCap(t *testing.T) {
	const capBytes = 64 << 10
	dir := t.TempDir()
	store, _ := storetest.Open(t, dir, engine.Options{})
	e := newEnvWith(t, dir, mcp.Config{Store: store, Conversation: "media", MaxMediaBytes: capBytes}, "")
	sp, err := store.Space("media")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	big, small := noisePNG(t, 400), noisePNG(t, 40)
	if len(big) <= capBytes {
		t.Fatalf("the big image is only %d bytes", len(big))
	}
	for name, data := range map[string][]byte{"big.png": big, "small.png": small} {
		if _, err := sp.WriteBytes(t.Context(), name, data, files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	res := e.call("file_read_media", map[string]any{"id": "big.png"})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("big.png: error %v, %d contents", res.IsError, len(res.Content))
	}
	img, ok := res.Content[1].(*sdk.ImageContent)
	if !ok {
		t.Fatalf("big.png came back as %T", res.Content[1])
	}
	if len(img.Data) > capBytes || len(img.Data) == 0 {
		t.Fatalf("the scaled image holds %d bytes; the cap is %d", len(img.Data), capBytes)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil || cfg.Width >= 400 || cfg.Width != cfg.Height {
		t.Fatalf("the answer decodes as %+v, %v; want a smaller square PNG", cfg, err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(text, "scaled down") {
		t.Errorf("the answer does not say it was scaled: %s", text)
	}

	res = e.call("file_read_media", map[string]any{"id": "small.png"})
	if img, ok := res.Content[1].(*sdk.ImageContent); res.IsError || !ok || !bytes.Equal(img.Data, small) {
		t.Fatalf("small.png did not come back as its own bytes")
	}
}
