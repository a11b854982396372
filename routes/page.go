package routes

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"
)

//go:embed web/*.html web/*.js web/*.css
var webFiles embed.FS

// pageCSP lets the page load only its own script, style, images and
// frames: a file name that slipped into the DOM as markup could still not
// run script.
const pageCSP = "default-src 'self'; img-src 'self' data: blob:; frame-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// asset is an embedded file of the web page with its headers.
type asset struct {
	body  []byte
	ctype string
	etag  string
}

func loadAsset(name, ctype string) asset {
	b, err := webFiles.ReadFile("web/" + name)
	if err != nil {
		panic(err) // embedded at build time: cannot be missing
	}
	sum := sha256.Sum256(b)
	return asset{body: b, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// pageAssets are the web page's files by path: served without a
// credential, so that a browser can show the sign-in form.
var pageAssets = map[string]asset{
	"/":            loadAsset("index.html", "text/html; charset=utf-8"),
	"/app.css":     loadAsset("app.css", "text/css; charset=utf-8"),
	"/app.js":      loadAsset("app.js", "text/javascript; charset=utf-8"),
	"/browser.js":  loadAsset("browser.js", "text/javascript; charset=utf-8"),
	"/actions.js":  loadAsset("actions.js", "text/javascript; charset=utf-8"),
	"/markdown.js": loadAsset("markdown.js", "text/javascript; charset=utf-8"),
	"/preview.js":  loadAsset("preview.js", "text/javascript; charset=utf-8"),
	"/rows.js":     loadAsset("rows.js", "text/javascript; charset=utf-8"),
	"/select.js":   loadAsset("select.js", "text/javascript; charset=utf-8"),
	"/upload.js":   loadAsset("upload.js", "text/javascript; charset=utf-8"),
	"/search.js":   loadAsset("search.js", "text/javascript; charset=utf-8"),
	"/live.js":     loadAsset("live.js", "text/javascript; charset=utf-8"),
	// The shared worker that holds a browser's one event stream.
	"/live-worker.js": loadAsset("live-worker.js", "text/javascript; charset=utf-8"),
}

// isPageAsset reports whether path is one of the page's own files.
func isPageAsset(path string) bool {
	_, ok := pageAssets[path]
	return ok
}

// registerPage serves the web page at / and its scripts and style.
func (s *Server) registerPage(r *mux.Router) {
	for path, a := range pageAssets {
		r.Handle(path, a).Methods(http.MethodGet, http.MethodHead)
	}
}

// ServeHTTP sends the asset; ETag makes a reload cheap.
func (a asset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-cache")
	h.Set("Etag", a.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}

// openAPI is the OpenAPI 3.1 description of every route, kept in the
// repository beside the code (routes/openapi.json) and checked against
// the router both ways by a test; the REST tests validate their requests
// and answers with it.
//
//go:embed openapi.json
var openAPI []byte

// handleOpenAPI is GET /openapi.json: the description, for clients
// generated from it, GPT actions and agent frameworks. It names routes,
// never a conversation, so it needs no credential.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(openAPI)))
	h.Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(openAPI)
}
