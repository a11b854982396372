package routes

import (
	"net/http"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// DirectLinkTTL is how long the URL of a redirect to the object store
// (Config.DirectOver) stays valid. The store checks it when a request
// starts, so a long download outlives it; a client that comes back later
// follows convfiles' link again and is checked again.
const DirectLinkTTL = 5 * time.Minute

// redirectToStore answers a GET of a large file kept in an object store
// with a 307 to a URL the store signed, so that the bytes go from the
// store to the client without this process relaying them. It reports
// false, having written nothing, when the request is served here
// instead: a HEAD, a Range or conditional request (answered here
// exactly, and a Range from the page's text preview is same-origin), a
// file under the threshold, or one whose store signs no URLs.
//
// The store answers with the type and Content-Disposition convfiles
// would send: types a browser could run stay attachments. The store's
// origin is not convfiles', so bytes shown there reach none of its
// cookies or pages.
func (s *Server) redirectToStore(w http.ResponseWriter, r *http.Request, f files.Blob, size int64, ctype, disposition []string) bool {
	if s.directOver <= 0 || size < s.directOver || r.Method != http.MethodGet {
		return false
	}
	for _, h := range []string{"Range", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	u, ok, err := driver.DirectURL(f, DirectLinkTTL, driver.DirectHeaders{
		ContentType: first(ctype), ContentDisposition: first(disposition), CacheControl: first(noCache)})
	if err != nil {
		// The bytes can still be relayed: log, and serve them here.
		s.log.Warn("direct link to the object store", "err", err)
		return false
	}
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Location", u)
	// The URL is a credential for these bytes: no cache keeps it, and the
	// store is not told which page the link was on.
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusTemporaryRedirect)
	return true
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
