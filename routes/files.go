package routes

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/ops"
)

// handleFile serves a file's bytes for a browser: http.ServeContent gives
// Range, ETag and conditional requests; nosniff and a sandbox CSP keep a
// hostile file from running script in this origin; only safe types are
// shown inline.
func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeJSON(w, http.StatusMethodNotAllowed, envelope{Error: &errorBody{Type: "MethodNotAllowed", Message: r.Method + " is not allowed on a file link; use GET or HEAD"}})
		return
	}
	conv, name, err := fileParams(r)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	ctx, ok := s.linkCredential(w, r, conv, name)
	if !ok {
		return
	}
	sp, err := s.open(ctx, conv, auth.Read)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	// A signed link always has a query: parse it only when it may ask
	// for a download.
	download := strings.Contains(r.URL.RawQuery, "download=") && r.URL.Query().Get("download") == "1"
	if sf := s.small.current(ctx, sp, conv, name); sf != nil {
		s.serveMemory(w, r, sf, download)
		return
	}
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer f.Close()
	if engine.LocalFile(f) != nil && info.Size <= smallFileMax {
		// Read once, and described from memory: no second read to sniff.
		data := make([]byte, info.Size)
		if _, err := f.ReadAt(data, 0); err == nil {
			fh := s.headers.lookup(conv, info, bytes.NewReader(data))
			s.serveMemory(w, r, s.small.keep(conv, name, f.Info(), data, fh), download)
			return
		}
	}
	s.serveBytes(w, r, f, info, s.headers.lookup(conv, info, f), download)
}

// serveMemory sends a small file's bytes from memory: a plain GET or
// HEAD with the headers prepared for its version, anything conditional
// or partial through http.ServeContent.
func (s *Server) serveMemory(w http.ResponseWriter, r *http.Request, sf *smallFile, attachment bool) {
	s.setFileHeaders(w, sf.headers, attachment)
	if plainRequest(r) {
		h := w.Header()
		h["Accept-Ranges"] = ranges
		h["Last-Modified"] = sf.headers.modified
		h["Content-Length"] = sf.headers.length
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(sf.data)
		}
		return
	}
	http.ServeContent(w, r, sf.name, sf.blob.ModTime, bytes.NewReader(sf.data))
}

// plainRequest reports whether r asks for the whole of a file without
// conditions: what most link requests are.
func plainRequest(r *http.Request) bool {
	for _, name := range [...]string{"Range", "If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since", "If-Range"} {
		if _, ok := r.Header[name]; ok {
			return false
		}
	}
	return true
}

// setFileHeaders sets the headers of a file's response; attachment asks
// for a download even of a type a browser could show.
func (s *Server) setFileHeaders(w http.ResponseWriter, fh *fileHeaders, attachment bool) {
	h := w.Header()
	h["Content-Type"] = fh.ctype
	h["Content-Disposition"] = fh.inline
	if attachment {
		h["Content-Disposition"] = fh.attachment
	}
	h["X-Content-Type-Options"] = nosniff
	h["Content-Security-Policy"] = sandbox
	h["Cache-Control"] = noCache
	if s.auth != nil {
		h["Cache-Control"] = privateNoCache
	}
	h["Etag"] = fh.etag
}

// serveBytes sends an open file with its headers; attachment forces a
// download even for types a browser could show.
func (s *Server) serveBytes(w http.ResponseWriter, r *http.Request, f files.Blob, info files.Info, fh *fileHeaders, attachment bool) {
	disposition := fh.inline
	if attachment {
		disposition = fh.attachment
	}
	if s.redirectToStore(w, r, f, info.Size, fh.ctype, disposition) {
		return
	}
	s.setFileHeaders(w, fh, attachment)
	// ServeContent seeks back to the start; passing a local file itself
	// lets net/http send it with sendfile. Bytes from an object store
	// are copied in pieces of 1 MiB instead of net/http's 32 KiB: a
	// thirty-second of the system calls, which on a 64 MiB file takes
	// the relay from 0.57 to about 0.8 of a direct GET (BENCHMARKS.md;
	// Config.DirectOver sends large files from the store itself).
	if lf := engine.LocalFile(f); lf != nil {
		http.ServeContent(w, r, info.Name, info.ModTime, lf)
		return
	}
	http.ServeContent(largeCopies{w}, r, info.Name, info.ModTime, f)
}

// copyBuffers are the buffers of largeCopies.
var copyBuffers = sync.Pool{New: func() any { return new([1 << 20]byte) }}

// largeCopies is a ResponseWriter whose ReadFrom copies through a 1 MiB
// buffer, taken from a pool for the copy's duration.
type largeCopies struct{ http.ResponseWriter }

// ReadFrom copies r to the response in large pieces.
func (w largeCopies) ReadFrom(r io.Reader) (int64, error) {
	buf := copyBuffers.Get().(*[1 << 20]byte)
	defer copyBuffers.Put(buf)
	return io.CopyBuffer(struct{ io.Writer }{w.ResponseWriter}, r, buf[:])
}

// Unwrap is for http.ResponseController.
func (w largeCopies) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// handleDownload is GET /api/files/{id}/download: always an attachment.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) { s.serveByID(w, r, true) }

// handleView is GET /api/files/{id}/view: in place for the safe types,
// an attachment for the rest, like a link.
func (s *Server) handleView(w http.ResponseWriter, r *http.Request) { s.serveByID(w, r, false) }

func (s *Server) serveByID(w http.ResponseWriter, r *http.Request, attachment bool) {
	rec, sp, err := s.fileByID(r, true)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	f, info, err := sp.Open(r.Context(), rec.Name)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer f.Close()
	s.serveBytes(w, r, f, info, s.headers.lookup(rec.Conversation, info, f), attachment)
}

// handleVersionDownload is GET /api/files/{id}/versions/{n}/download.
func (s *Server) handleVersionDownload(w http.ResponseWriter, r *http.Request) {
	rec, sp, err := s.fileByID(r, false)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	n, err := versionVar(r)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	f, v, err := sp.OpenVersion(r.Context(), rec.ID, n)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer f.Close()
	info := files.Info{Name: v.Name, Size: f.Info().Size, ModTime: f.Info().ModTime}
	s.serveBytes(w, r, f, info, describeFile(info, f), true)
}

// fileParams splits /files/{conversation_id}/{name...} from the escaped path
// and decodes each part exactly once: "%2e%2e" is "..", which is refused,
// and "%252e" is the literal name "%2e".
func fileParams(r *http.Request) (conv, name string, err error) {
	rest := strings.TrimPrefix(r.URL.EscapedPath(), "/files/")
	rawConv, rawName, ok := strings.Cut(rest, "/")
	if !ok || rawName == "" {
		return "", "", files.E("read", files.KindNotFound, rest, "a link is /files/{conversation_id}/{name}", nil)
	}
	conv, err = url.PathUnescape(rawConv)
	if err != nil {
		return "", "", files.E("read", files.KindInvalid, rawConv, "malformed percent-encoding in the conversation ID", nil)
	}
	name, err = url.PathUnescape(rawName)
	if err != nil {
		return "", "", files.E("read", files.KindInvalid, rawName, "malformed percent-encoding in the file name", nil)
	}
	return conv, name, nil
}

// handleZip is GET /api/conversations/{conversation}/zip?path=a.csv&path=reports&base=:
// the files and folders named, as one zip archive, streamed as it is
// built (ops.PlanZip bounds it before the first byte; ops.WriteZip builds
// it with the standard library's archive/zip). Entries are named from
// base, the folder they were chosen in. A failure part-way breaks the
// connection, so a client never keeps a truncated archive as whole.
func (s *Server) handleZip(w http.ResponseWriter, r *http.Request) {
	conv, err := pathVar(r, "conversation")
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	sp, err := s.open(r.Context(), conv, auth.Read)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	q := r.URL.Query()
	in := ops.ZipIn{Paths: q["path"], Base: q.Get("base")}
	plan, err := ops.PlanZip(r.Context(), sp, in)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", disposition(zipName(conv, in), "application/zip", true))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if err := ops.WriteZip(r.Context(), sp, plan, w); err != nil {
		if r.Context().Err() == nil {
			s.log.Error("zip", "conversation", conv, "err", err)
		}
		panic(http.ErrAbortHandler)
	}
}

// zipName is the archive's file name: the one file or folder chosen, else
// the folder they were chosen in, else the conversation.
func zipName(conv string, in ops.ZipIn) string {
	name := conv
	switch {
	case len(in.Paths) == 1:
		name = path.Base(strings.TrimSuffix(in.Paths[0], "/"))
	case in.Base != "" && in.Base != "." && in.Base != "/":
		name = path.Base(strings.TrimSuffix(in.Base, "/"))
	}
	return name + ".zip"
}
