package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
)

// Thumbnail sizes: the longest side, in pixels.
const (
	defaultThumbSide = 256
	maxThumbSide     = 1024
)

// newPreviewSlots makes the tokens that bound how many previews and
// thumbnails are made at once, server-wide: each may decode a whole image
// or walk a whole sheet, and a page full of thumbnails must not starve
// everyone else's requests.
func newPreviewSlots(n int) chan struct{} { return make(chan struct{}, max(n, 1)) }

// previewSlot waits for a free slot, or for the request to end.
func (s *Server) previewSlot(ctx context.Context) (release func(), err error) {
	select {
	case s.previews <- struct{}{}:
		return func() { <-s.previews }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// The formats operations behind previews and thumbnails, run by the
// server's formats.Caller (in worker processes when it is a sandbox pool).
var (
	previewOp   = formats.NameOf(formats.PreviewOf)
	thumbnailOp = formats.NameOf(formats.ToBase64)
)

// handlePreview answers GET /api/files/{id}/preview[?sheet=Name]: what the
// web page shows of an image, a PDF or a spreadsheet beside its bytes.
func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) {
	s.withFile(w, r, true, func(rec files.Record, sp *engine.Space) (any, error) {
		sheet := r.URL.Query().Get("sheet")
		key := derivedKey(rec, "preview", rec.MIME, sheet)
		if _, p, ok := s.derived.get(key); ok {
			return map[string]any{"file": s.fileJSON(rec), "preview": json.RawMessage(p)}, nil
		}
		release, err := s.previewSlot(r.Context())
		if err != nil {
			return nil, err
		}
		defer release()
		p, err := s.formats.Call(r.Context(), formats.Env{Space: sp}, previewOp,
			formats.PreviewArgs{File: rec.Name, MIME: rec.MIME, Sheet: sheet})
		if err != nil {
			return nil, err
		}
		s.derived.put(key, "application/json", p)
		return map[string]any{"file": s.fileJSON(rec), "preview": p}, nil
	})
}

// handleThumbnail answers GET /api/files/{id}/thumbnail[?size=256]: the
// image shrunk so its longest side is at most size pixels, turned the way
// its EXIF says. Its ETag names the content and the size, so a page that
// shows it again gets 304 Not Modified without anything being decoded.
func (s *Server) handleThumbnail(w http.ResponseWriter, r *http.Request) {
	side, err := thumbSide(r)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	rec, sp, err := s.fileByID(r, true)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	if formats.PreviewKind(rec.Name, rec.MIME) != formats.PreviewImage {
		writeError(w, r, s.log, files.E("thumbnail", files.KindInvalid, rec.Name,
			"there is no thumbnail of "+rec.MIME+" files: thumbnails are made of PNG, JPEG, WebP, GIF, BMP and TIFF images", nil))
		return
	}
	etag := thumbETag(rec, side)
	h := w.Header()
	h.Set("Etag", etag)
	h.Set("Cache-Control", "private, no-cache")
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	key := derivedKey(rec, "thumbnail", strconv.Itoa(side))
	var enc formats.Encoded
	if mime, data, ok := s.derived.get(key); ok {
		enc = formats.Encoded{MIME: mime, Data: data}
	} else {
		release, err := s.previewSlot(r.Context())
		if err != nil {
			writeError(w, r, s.log, err)
			return
		}
		raw, err := s.formats.Call(r.Context(), formats.Env{Space: sp}, thumbnailOp, formats.Base64Args{File: rec.ID, MaxWidth: side, MaxHeight: side})
		release()
		if err == nil {
			err = json.Unmarshal(raw, &enc)
		}
		if err != nil {
			h.Del("Etag")
			writeError(w, r, s.log, err)
			return
		}
		s.derived.put(key, enc.MIME, enc.Data)
	}
	h["Content-Type"] = []string{enc.MIME}
	h["X-Content-Type-Options"] = nosniff
	h["Content-Security-Policy"] = sandbox
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(enc.Data))
}

func thumbSide(r *http.Request) (int, error) {
	raw := r.URL.Query().Get("size")
	if raw == "" {
		return defaultThumbSide, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 16 || n > maxThumbSide {
		return 0, files.E("thumbnail", files.KindInvalid, raw, "size must be a whole number of pixels from 16 to "+strconv.Itoa(maxThumbSide), nil)
	}
	return n, nil
}

// thumbETag names a thumbnail by its file's content and its size.
func thumbETag(rec files.Record, side int) string {
	id := rec.SHA256
	if len(id) > 24 {
		id = id[:24]
	}
	if id == "" {
		id = rec.ID + "-v" + strconv.Itoa(rec.Version)
	}
	return `"thumb-` + strconv.Itoa(side) + "-" + id + `"`
}

// etagMatches tells whether an If-None-Match header names etag (or is *).
func etagMatches(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}
