// Package formats applies the content format helpers (spreadsheets, PDFs,
// images) to a conversation's files: it reads a file through its Space,
// runs the helper, and writes the result back atomically. An edit in place
// keeps the earlier content as a version; a new file made from another is
// recorded with source "derived" and the ID of the file it came from.
// The runtime's files.spreadsheet/pdf/image bindings and the MCP tools
// spreadsheet_*, pdf_*, image_* are thin doors over these functions.
package formats

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path"
	"strings"
	"sync"

	"convfiles/content"
	"convfiles/files"
)

// Env is what one operation works with: a conversation's files and the
// options of the caller's writes (its byte budget and session).
type Env struct {
	Space *files.Space
	Write files.WriteOptions
	// Wrote, when set, is told the name of every file written.
	Wrote func(name string)
}

// FileArgs name one file, by ID or by name.
type FileArgs struct {
	File string `json:"file"`
}

// Written describes a file an operation wrote.
type Written struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	MIME    string `json:"mime_type"`
	Created bool   `json:"created"` // false when an existing file was replaced (its old content kept as a version)
}

// source is a file read whole, ready for a format helper.
type source struct {
	name string // its name in the Space
	id   string // its ID, or its name without an index
	data []byte
}

// MaxInputBytes is the most a format helper reads of one file.
const MaxInputBytes = files.DefaultMaxFileBytes

// load reads the file idOrName whole, refusing one larger than
// MaxInputBytes before reading it.
func (e Env) load(op, idOrName string) (source, error) {
	name, err := e.Space.Resolve(idOrName)
	if err != nil {
		return source{}, err
	}
	f, info, err := e.Space.Open(name)
	if err != nil {
		return source{}, err
	}
	defer f.Close()
	if info.Size > MaxInputBytes {
		return source{}, files.E(op, files.KindTooLarge, name,
			"the file is "+files.FormatBytes(info.Size)+", more than the "+files.FormatBytes(MaxInputBytes)+" format operations read", nil)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return source{}, files.E(op, files.KindInternal, name, "cannot read the file", err)
	}
	if int64(len(data)) > MaxInputBytes {
		return source{}, files.E(op, files.KindTooLarge, name, "the file grew past "+files.FormatBytes(MaxInputBytes)+" while it was read", nil)
	}
	id := name
	if rec, err := e.Space.Record(name); err == nil && rec.ID != "" {
		id = rec.ID
	}
	return source{name: name, id: id, data: data}, nil
}

// save writes data as name. from, when set, is the file it was made from:
// a new file records it as its origin.
func (e Env) save(ctx context.Context, name string, data []byte, from *source) (Written, error) {
	opts := e.Write
	if from != nil && from.name != name {
		opts.Source = files.SourceDerived
		if from.id != from.name {
			opts.DerivedFrom = from.id
		}
	}
	info, err := e.Space.WriteBytes(ctx, name, data, opts)
	if err != nil {
		return Written{}, err
	}
	if e.Wrote != nil {
		e.Wrote(info.Name)
	}
	w := Written{ID: info.ID, Name: info.Name, Size: info.Size, Created: info.Replaced < 0,
		MIME: content.RecordedMIME(info.Name, "")}
	if rec, err := e.Space.Record(info.Name); err == nil {
		w.ID, w.MIME = rec.ID, content.RecordedMIME(rec.Name, rec.MIME)
	}
	if w.ID == "" {
		w.ID = info.Name
	}
	return w, nil
}

// edits serializes read-modify-write edits of one file in this process,
// so two scripts editing a workbook at once both land.
var edits sync.Map // conversation + "\x00" + name → *sync.Mutex

func (e Env) lockFile(name string) func() {
	m, _ := edits.LoadOrStore(e.Space.ID()+"\x00"+name, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// refused turns a content helper's refusal into a files.Error with the
// matching kind, so every door reports it in its own terms.
func refused(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var r *content.Refusal
	if !errors.As(err, &r) {
		var fe *files.Error
		if errors.As(err, &fe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return files.E(op, files.KindInternal, name, "the operation failed", err)
	}
	kind := files.KindInvalid
	if errors.Is(err, content.ErrTooLarge) {
		kind = files.KindTooLarge
	}
	return files.E(op, kind, name, r.Msg, nil)
}

// outputName returns the name a derived file gets: the caller's, or the
// source's name with a suffix and extension ("photo-1024x768.jpg").
func outputName(given, src, suffix, ext string) string {
	if given != "" {
		return given
	}
	dir, base := path.Split(src)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if ext == "" {
		ext = path.Ext(base)
	}
	return dir + stem + suffix + ext
}

// buffer is where a helper writes a result before it is saved.
func buffer(n int) *bytes.Buffer { return bytes.NewBuffer(make([]byte, 0, n)) }
