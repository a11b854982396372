package routes

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/formparts"
)

// uploadBuffer is how much of an upload is read, scanned for its boundary
// and written at a time.
const uploadBuffer = 512 << 10

// maxUploadParts bounds the parts of one upload, files and fields: each
// file waits, written but not committed, until the upload ends.
const maxUploadParts = 1000

// handleUpload is POST /api/files/upload: multipart/form-data with one or
// more file parts, streamed to disk as they arrive. The conversation comes
// from ?conversation= or a "conversation" field sent before the files; an
// optional "session" names who uploaded. Every byte is checked against the
// file and conversation limits before it is written. The upload is all or
// nothing: if one file is refused, none is kept, and no temporary file
// stays behind. The MIME type is sniffed from the bytes, never taken from
// the client. ?on_conflict=fail refuses names that exist; the default
// replaces them, keeping the old content as a version.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	mr, err := multipartReader(r)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	q := r.URL.Query()
	up := &upload{conv: q.Get("conversation"), session: q.Get("session"), server: s, r: r}
	switch q.Get("on_conflict") {
	case "", "replace":
	case "fail":
		up.noReplace = true
	default:
		writeError(w, r, s.log, files.E("upload", files.KindInvalid, q.Get("on_conflict"), "on_conflict is replace or fail", nil))
		return
	}
	defer up.abort()
	if err := up.receive(mr); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	recs, err := up.commit()
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	writeJSON(w, http.StatusCreated, envelope{Success: true, Result: map[string]any{"files": s.filesJSON(recs)}})
}

// upload is one upload request in progress.
type upload struct {
	server    *Server
	r         *http.Request
	conv      string
	session   string
	noReplace bool
	sp        *engine.Space
	pending   []*engine.Writer
}

// receive streams every file part into an uncommitted Writer.
func (u *upload) receive(mr *formparts.Reader) error {
	seen := map[string]bool{}
	for parts := 1; ; parts++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return files.E("upload", files.KindInvalid, "", "the multipart body is malformed or was cut off", err)
		}
		if parts > maxUploadParts {
			return files.E("upload", files.KindTooLarge, "", fmt.Sprintf(
				"an upload holds at most %d parts (files and fields): send the rest in another upload", maxUploadParts), nil)
		}
		name := partFileName(part)
		if name == "" {
			if err := u.field(part); err != nil {
				return err
			}
			continue
		}
		if u.sp == nil {
			if u.conv == "" {
				return files.E("upload", files.KindInvalid, "", "name the conversation: ?conversation=ID, or a \"conversation\" field before the files", nil)
			}
			if u.sp, err = u.server.open(u.r.Context(), u.conv, auth.Write); err != nil {
				return err
			}
		}
		if u.noReplace {
			// Fail before streaming the bytes; the commit decides again,
			// atomically, in case the name is taken meanwhile.
			if _, err := u.sp.Stat(u.r.Context(), name); err == nil {
				return files.E("upload", files.KindConflict, name, "already exists (on_conflict=fail)", nil)
			}
		}
		fw, err := u.sp.Create(u.r.Context(), name, files.WriteOptions{Source: files.SourceUpload, Session: u.session, NoReplace: u.noReplace})
		if err != nil {
			return err
		}
		u.pending = append(u.pending, fw)
		if seen[fw.Name()] {
			return files.E("upload", files.KindInvalid, fw.Name(), "the upload holds two files with this name", nil)
		}
		seen[fw.Name()] = true
		if _, err := part.WriteTo(fw); err != nil {
			var re *formparts.ReadError
			if errors.As(err, &re) {
				return files.E("upload", files.KindInvalid, fw.Name(), "the upload was cut off before this file ended", err)
			}
			return err
		}
	}
	if len(u.pending) == 0 {
		return files.E("upload", files.KindInvalid, "", "the upload holds no file: send parts with a filename", nil)
	}
	return nil
}

// multipartReader reads the body of a multipart/form-data request in
// windows of uploadBuffer bytes, each part's bytes going from that buffer
// to the file (mime/multipart scans and copies 4 KiB at a time).
func multipartReader(r *http.Request) (*formparts.Reader, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, files.E("upload", files.KindInvalid, "", "send multipart/form-data with one or more file fields", nil)
	}
	return formparts.NewReader(r.Body, params["boundary"], uploadBuffer), nil
}

// field reads a plain form field (at most 1 KiB).
func (u *upload) field(part *formparts.Part) error {
	b, err := io.ReadAll(io.LimitReader(part, 1<<10))
	if err != nil {
		return files.E("upload", files.KindInvalid, part.FormName(), "the multipart body is malformed or was cut off", err)
	}
	v := strings.TrimSpace(string(b))
	switch part.FormName() {
	case "conversation":
		if u.sp != nil && v != u.conv {
			return files.E("upload", files.KindInvalid, v, "the conversation field must come before the files", nil)
		}
		u.conv = v
	case "session":
		u.session = v
	}
	return nil
}

// commit makes every received file visible and returns their records.
func (u *upload) commit() ([]files.Record, error) {
	var out []files.Record
	for len(u.pending) > 0 {
		info, err := u.pending[0].Commit()
		u.pending = u.pending[1:]
		if err != nil {
			return nil, err
		}
		rec, err := u.sp.Record(u.r.Context(), info.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// abort discards whatever was not committed and closes the Space.
func (u *upload) abort() {
	for _, fw := range u.pending {
		fw.Abort()
	}
	if u.sp != nil {
		u.sp.Close()
	}
}

// partFileName returns the file name a part carries, folders included
// (multipart.Part.FileName would keep only the last element and so hide a
// hostile name instead of refusing it); "" for a plain field.
func partFileName(p *formparts.Part) string {
	_, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	return params["filename"]
}
