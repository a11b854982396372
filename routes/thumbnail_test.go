package routes

import (
	"bytes"
	"context"
	"image"
	"image/color"
	_ "image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
)

// TestThumbnailsShrinkAndRevalidate: a thumbnail is the image shrunk to
// the size asked for, in the image's own format; a page asking again with
// its ETag gets 304 and no body; a new content gets a new ETag; bad sizes
// and files that are not images are refused with what is allowed.
func TestThumbnailsShrinkAndRevalidate(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	id := putSample(t, e, "thumbs", "wide.png", photo(t, 800, 600, color.NRGBA{200, 30, 30, 255}))
	small := putSample(t, e, "thumbs", "sample.jpg", nil)
	pdf := putSample(t, e, "thumbs", "form.pdf", nil)
	url := e.srv.URL + "/api/files/" + id + "/thumbnail"

	resp, body := e.get("/api/files/" + id + "/thumbnail")
	etag := resp.Header.Get("Etag")
	img, err := png.Decode(bytes.NewReader(body))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || err != nil || etag == "" {
		t.Fatalf("thumbnail: %d %s %v etag %q", resp.StatusCode, resp.Header.Get("Content-Type"), err, etag)
	}
	if b := img.Bounds(); b.Dx() != 256 || b.Dy() != 192 {
		t.Errorf("thumbnail is %v, want 256×192", b.Size())
	}
	if r, g, _, _ := img.At(128, 96).RGBA(); r>>8 != 200 || g>>8 != 30 {
		t.Errorf("thumbnail's colour changed: %v", img.At(128, 96))
	}
	if resp, _ := e.get("/api/files/" + id + "/thumbnail?size=64"); resp.Header.Get("Etag") == etag {
		t.Error("two sizes share an ETag")
	}

	// Revalidation decodes nothing, so it answers even while every
	// preview slot is busy.
	srv := e.srv.Config.Handler.(*Server)
	for range cap(srv.previews) {
		srv.previews <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("If-None-Match", etag)
	again, err := http.DefaultClient.Do(req)
	cancel()
	for range cap(srv.previews) {
		<-srv.previews
	}
	if err != nil {
		t.Fatalf("revalidation waited for a preview slot: %v", err)
	}
	again.Body.Close()
	if again.StatusCode != http.StatusNotModified || again.ContentLength > 0 {
		t.Errorf("revalidation: %d, %d bytes; want 304 and no body", again.StatusCode, again.ContentLength)
	}

	// New content, new ETag: the same If-None-Match now gets the new image.
	putSample(t, e, "thumbs", "wide.png", photo(t, 300, 900, color.NRGBA{0, 0, 255, 255}))
	req, _ = http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("If-None-Match", etag)
	changed, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := image.DecodeConfig(changed.Body)
	changed.Body.Close()
	if changed.StatusCode != 200 || err != nil || cfg.Width != 85 || cfg.Height != 256 || changed.Header.Get("Etag") == etag {
		t.Errorf("after a write: %d %v %dx%d etag %q", changed.StatusCode, err, cfg.Width, cfg.Height, changed.Header.Get("Etag"))
	}

	// An image already inside the box is sent as it is.
	resp, body = e.get("/api/files/" + small + "/thumbnail")
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(body)); resp.StatusCode != 200 || err != nil || format != "jpeg" || cfg.Width != 64 {
		t.Errorf("small image: %d %s %v %+v", resp.StatusCode, format, err, cfg)
	}

	for path, want := range map[string]string{
		"/api/files/" + id + "/thumbnail?size=5000": "size must be a whole number of pixels from 16 to 1024",
		"/api/files/" + id + "/thumbnail?size=big":  "size must be a whole number of pixels from 16 to 1024",
		"/api/files/" + pdf + "/thumbnail":          "thumbnails are made of PNG, JPEG",
	} {
		resp, body := e.get(path)
		if resp.StatusCode != 400 || !strings.Contains(string(body), want) || resp.Header.Get("Etag") != "" {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	sp, _ := e.store.Space("thumbs")
	sp.Remove(context.Background(), "wide.png")
	sp.Close()
	if resp, _ := e.get("/api/files/" + id + "/thumbnail"); resp.StatusCode != 404 {
		t.Errorf("thumbnail of a deleted file: %d", resp.StatusCode)
	}
}
