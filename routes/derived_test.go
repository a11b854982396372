package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"image/color"
	"sync/atomic"
	"testing"

	"convfiles/engine"
	"convfiles/formats"
)

// countingCaller counts the formats operations a server asks for.
type countingCaller struct {
	formats.Caller
	calls atomic.Int64
}

func (c *countingCaller) Call(ctx context.Context, e formats.Env, name string, args any) (json.RawMessage, error) {
	c.calls.Add(1)
	return c.Caller.Call(ctx, e, name, args)
}

// TestRepeatedThumbnailsAndPreviewsDecodeNothing: the second GET of a
// thumbnail (without an ETag, as a fresh page asks) and of a preview is
// answered from what the first decoded, the same bytes; another size, a
// new content, or a copy elsewhere with the same bytes is keyed by what
// it is made from.
func TestRepeatedThumbnailsAndPreviewsDecodeNothing(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	counter := &countingCaller{Caller: formats.Local{}}
	srv := e.srv.Config.Handler.(*Server)
	srv.formats = counter
	id := putSample(t, e, "thumbs", "wide.png", photo(t, 800, 600, color.NRGBA{200, 30, 30, 255}))

	first, body1 := e.get("/api/files/" + id + "/thumbnail")
	again, body2 := e.get("/api/files/" + id + "/thumbnail")
	if first.StatusCode != 200 || again.StatusCode != 200 || !bytes.Equal(body1, body2) || again.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("first %d, again %d %s, same bytes %v", first.StatusCode, again.StatusCode, again.Header.Get("Content-Type"), bytes.Equal(body1, body2))
	}
	if n := counter.calls.Load(); n != 1 {
		t.Fatalf("two GETs of one thumbnail decoded %d times, want 1", n)
	}
	e.get("/api/files/" + id + "/thumbnail?size=64")
	if n := counter.calls.Load(); n != 2 {
		t.Fatalf("another size: %d decodes, want 2", n)
	}
	_, p1 := e.get("/api/files/" + id + "/preview")
	_, p2 := e.get("/api/files/" + id + "/preview")
	if n := counter.calls.Load(); n != 3 || !bytes.Equal(p1, p2) {
		t.Fatalf("two previews: %d decodes (want 3 in all), same answer %v", n, bytes.Equal(p1, p2))
	}
	id2 := putSample(t, e, "thumbs", "wide.png", photo(t, 400, 300, color.NRGBA{30, 200, 30, 255}))
	e.get("/api/files/" + id2 + "/thumbnail")
	if n := counter.calls.Load(); n != 4 {
		t.Fatalf("a new content: %d decodes, want 4", n)
	}
}

// TestDerivedCacheIsBounded: past its bounds the least recently used
// entries go.
func TestDerivedCacheIsBounded(t *testing.T) {
	c := newDerivedCache()
	big := make([]byte, derivedMaxEntry)
	for i := range derivedCacheBytes/derivedMaxEntry + 2 {
		c.put(string(rune('a'+i)), "image/png", big)
	}
	if used := c.kept.Used(); used > derivedCacheBytes {
		t.Fatalf("holds %d bytes, over %d", used, derivedCacheBytes)
	}
	if _, _, ok := c.get("a"); ok {
		t.Fatal("the oldest entry is still kept")
	}
	c.put("huge", "image/png", make([]byte, derivedMaxEntry+1))
	if _, _, ok := c.get("huge"); ok {
		t.Fatal("an entry over the size of one was kept")
	}
}
