package routes

import (
	"image/color"
	"net/http"
	"testing"

	"convfiles/engine"
)

// BenchmarkThumbnailGET times GET /api/files/{id}/thumbnail of an 800×600
// PNG without an ETag (a fresh page): decoded each time (the cache
// emptied before each GET, as every GET was before it) and repeated
// (answered from the cache). Both in one run:
//
//	go test -run '^$' -bench 'ThumbnailGET' ./routes
func BenchmarkThumbnailGET(b *testing.B) {
	e := newAPIEnv(b, engine.Options{})
	id := putSample(b, e, "thumbs", "wide.png", photo(b, 800, 600, color.NRGBA{200, 30, 30, 255}))
	srv := e.srv.Config.Handler.(*Server)
	url := e.srv.URL + "/api/files/" + id + "/thumbnail"
	get := func(b *testing.B) {
		resp, err := http.Get(url)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("%v %v", err, resp)
		}
		resp.Body.Close()
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			srv.derived = newDerivedCache()
			get(b)
		}
	})
	b.Run("repeated", func(b *testing.B) {
		get(b)
		for b.Loop() {
			get(b)
		}
	})
}
