package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"sync"

	"convfiles/files"
)

// versionsDir is the reserved folder, at the top of a conversation's
// folder, that holds kept versions as versionsDir/<file id>/<version>.
const versionsDir = files.ReservedPrefix + "versions"

func versionPath(id string, n int) string {
	return versionsDir + "/" + id + "/" + strconv.Itoa(n)
}

// indexed reports whether the Space records its files in an index: only
// conversations of a Store with one do.
func (sp *Space) indexed() bool { return sp.opts.Index != nil && sp.id != "" }

// keep is how many versions a file of this Space keeps.
func (sp *Space) keep() int {
	if !sp.indexed() {
		return 0
	}
	return max(sp.opts.Versions, 0)
}

// lookup returns the indexed record of name; ok is false when there is
// none (no index, or a file the index has not seen yet).
func (sp *Space) lookup(ctx context.Context, name string) (files.Record, bool) {
	if !sp.indexed() {
		return files.Record{}, false
	}
	rec, err := sp.opts.Index.Lookup(ctx, sp.id, name)
	if err != nil {
		if files.KindOf(err) != files.KindNotFound {
			sp.opts.Logger.Error("index lookup", "conversation", sp.id, "name", name, "err", err)
		}
		return files.Record{}, false
	}
	return rec, true
}

// keepVersion copies the current content of name to the versions folder
// as version rec.Version, before a change replaces or removes it (on disk
// a link: nothing is copied). It reports whether it kept one.
func (sp *Space) keepVersion(ctx context.Context, name string, rec files.Record) bool {
	err := sp.blobs.Copy(ctx, sp.key(name), sp.key(versionPath(rec.ID, rec.Version)))
	if err != nil {
		sp.opts.Logger.Error("keep version", "conversation", sp.id, "name", name, "err", err)
		return false
	}
	return true
}

// versionOf describes rec's content as a kept version.
func (sp *Space) versionOf(rec files.Record, reason string) *files.Version {
	return &files.Version{FileID: rec.ID, Version: rec.Version, Name: rec.Name, MIME: rec.MIME, Size: rec.Size,
		SHA256: rec.SHA256, Saved: rec.Modified, Kept: sp.opts.Now(), Reason: reason}
}

// describe computes the MIME type and SHA-256 of the open file f, reading
// it from the start; sum, when not nil, is the SHA-256 already known.
func (sp *Space) describe(f io.ReaderAt, name string, sum []byte) (mime, sha string, err error) {
	bp := describeBuffers.Get().(*[]byte)
	defer describeBuffers.Put(bp)
	buf := *bp
	head := buf[:files.SniffBytes]
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return "", "", err
	}
	mime = "application/octet-stream"
	if sp.opts.Sniff != nil {
		mime = sp.opts.Sniff(name, head[:n])
	}
	if sum == nil {
		h := sha256.New()
		if n < files.SniffBytes { // the whole file is in head
			h.Write(head[:n])
		} else if _, err := io.CopyBuffer(h, io.NewSectionReader(f, 0, 1<<62), buf); err != nil {
			return "", "", err
		}
		sum = h.Sum(nil)
	}
	return mime, hex.EncodeToString(sum), nil
}

// describeBuffers hold the buffer describe reads through: a start-up
// describes every new file, and a buffer each was most of what it
// allocated.
var describeBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// Resolve turns what a caller calls a file, its ID or its name, into its
// name. An ID is looked up in the index and must belong to this Space's
// conversation and be live; anything else is validated as a name.
func (sp *Space) Resolve(ctx context.Context, idOrName string) (string, error) {
	if rec, ok := sp.byID(ctx, idOrName); ok {
		if rec.Deleted != nil {
			return "", files.E("find", files.KindNotFound, idOrName, "the file with this ID was deleted; its versions can be restored", nil)
		}
		return rec.Name, nil
	}
	return files.ValidateName(idOrName)
}

// byID returns the indexed file (live or deleted) whose ID is s, if s is
// one and the file belongs to this Space's conversation.
func (sp *Space) byID(ctx context.Context, s string) (files.Record, bool) {
	if !sp.indexed() || !looksLikeID(s) {
		return files.Record{}, false
	}
	rec, err := sp.opts.Index.ByID(ctx, s)
	return rec, err == nil && rec.Conversation == sp.id
}

// looksLikeID reports whether s has the shape of a file ID (a UUID).
func looksLikeID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '-' && !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
