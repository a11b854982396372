package routes

import (
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gorilla/mux"

	"convfiles/content"
	"convfiles/files"
)

func (s *Server) registerFileRoutes(r *mux.Router) {
	r.HandleFunc("/files/{conversation_id}/{name:.+}", s.handleFile).Methods(http.MethodGet, http.MethodHead)
}

// handleFile serves a file's bytes for a browser: http.ServeContent gives
// Range, ETag and conditional requests; nosniff and a sandbox CSP keep a
// hostile file from running script in this origin; only safe types are
// shown inline.
func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	conv, name, err := fileParams(r)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	sp, err := s.store.Space(conv)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	f, info, err := sp.Open(name)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer f.Close()

	head := make([]byte, content.SniffLen)
	n, _ := io.ReadFull(f, head)
	_, mimeType := content.Detect(info.Name, head[:n], int64(n) == info.Size)

	h := w.Header()
	h.Set("Content-Type", servedType(mimeType))
	h.Set("Content-Disposition", disposition(info.Name, mimeType, r.URL.Query().Get("download") == "1"))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+strconv.FormatInt(info.Size, 36)+"-"+strconv.FormatInt(info.ModTime.UnixNano(), 36)+`"`)
	// ServeContent seeks back to the start; passing the *os.File itself lets
	// net/http send it with sendfile.
	http.ServeContent(w, r, info.Name, info.ModTime, f)
}

// fileParams decodes the conversation ID and the name from the escaped path,
// exactly once: "%2e%2e" is "..", which is refused, and "%252e" is the
// literal name "%2e".
func fileParams(r *http.Request) (conv, name string, err error) {
	vars := mux.Vars(r)
	conv, err = url.PathUnescape(vars["conversation_id"])
	if err != nil {
		return "", "", files.E("read", files.KindInvalid, vars["conversation_id"], "malformed percent-encoding in the conversation ID", nil)
	}
	name, err = url.PathUnescape(vars["name"])
	if err != nil {
		return "", "", files.E("read", files.KindInvalid, vars["name"], "malformed percent-encoding in the file name", nil)
	}
	return conv, name, nil
}
