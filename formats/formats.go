// Package formats applies the content format helpers (spreadsheets, PDFs,
// images) to a conversation's files: it reads a file through its Space,
// runs the helper, and writes the result back atomically. An edit in place
// keeps the earlier content as a version; a new file made from another is
// recorded with source "derived" and the ID of the file it came from.
// The runtime's files.spreadsheet/pdf/image bindings and the MCP tools
// spreadsheet_*, pdf_*, image_* are thin doors over these functions.
//
// formats must never import HTTP, SQL, the engine or a door: it works
// through files.Ops.
package formats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"convfiles/content"
	"convfiles/files"
)

// Env is what one operation works with: a conversation's files and the
// options of the caller's writes (its byte budget and session).
type Env struct {
	Space files.Ops
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
	name string     // its name in the Space
	info files.Info // as read: an edit writes over it only if it is unchanged
	data []byte
}

// MaxInputBytes is the most a format helper reads of one file.
const MaxInputBytes = files.DefaultMaxFileBytes

// load reads the file idOrName whole, refusing one larger than
// MaxInputBytes before reading it.
func (e Env) load(ctx context.Context, idOrName string) (source, error) {
	name, err := e.Space.Resolve(ctx, idOrName)
	if err != nil {
		return source{}, err
	}
	data, info, err := e.Space.ReadFile(ctx, name, MaxInputBytes)
	return source{name: name, info: info, data: data}, err
}

// save writes data as a new file made from the file from, recorded as
// derived from it. output is the caller's name for it, which replaces a
// file of that name (keeping it as a version); without one, the file gets
// the default name, or the first of name-2, name-3… that is free: a
// default name never replaces a file.
func (e Env) save(ctx context.Context, output, def string, data []byte, from source) (Written, error) {
	opts := e.Write
	opts.Source = files.SourceDerived
	if rec, err := e.Space.Record(ctx, from.name); err == nil {
		opts.DerivedFrom = rec.ID
	}
	if output != "" {
		return e.write(ctx, output, data, opts)
	}
	opts.NoReplace = true
	ext := path.Ext(def)
	for n := 1; ; n++ {
		name := def
		if n > 1 {
			name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(def, ext), n, ext)
		}
		w, err := e.write(ctx, name, data, opts)
		if n < 100 && errors.Is(err, fs.ErrExist) {
			continue
		}
		return w, err
	}
}

func (e Env) write(ctx context.Context, name string, data []byte, opts files.WriteOptions) (Written, error) {
	info, err := e.Space.WriteBytes(ctx, name, data, opts)
	if err != nil {
		return Written{}, err
	}
	if e.Wrote != nil {
		e.Wrote(info.Name)
	}
	w := Written{ID: info.Name, Name: info.Name, Size: info.Size, Created: info.Replaced < 0,
		MIME: content.RecordedMIME(info.Name, "")}
	if rec, err := e.Space.Record(ctx, info.Name); err == nil {
		w.ID, w.MIME = rec.ID, content.RecordedMIME(rec.Name, rec.MIME)
	}
	return w, nil
}

// editAttempts is how many times an edit starts again when other writers
// changed the file between its read and its write: each failed attempt
// means another edit landed, so n editors of one file all land within n
// attempts; past 8 the file is being rewritten faster than it can be
// edited, and the edit is refused as a conflict.
const editAttempts = 8

// edit changes a file in place: it reads it, has change make the new
// content, and writes it only over the content it read (the earlier
// content is kept as a version). When another writer changed the file
// meanwhile, the edit starts again from the new content, so both changes
// land. With create, a file that does not exist is made, from data nil.
func (e Env) edit(ctx context.Context, op, file string, create bool, change func(src source) ([]byte, error)) (Written, error) {
	name, err := e.Space.Resolve(ctx, file)
	if err != nil {
		return Written{}, err
	}
	for attempt := 1; ; attempt++ {
		src, err := e.load(ctx, name)
		opts := e.Write
		switch {
		case err == nil:
			opts.IfUnchanged = &src.info
		case create && files.KindOf(err) == files.KindNotFound:
			src, opts.NoReplace = source{name: name}, true
		default:
			return Written{}, err
		}
		data, err := change(src)
		if err != nil {
			return Written{}, refused(op, name, err)
		}
		w, err := e.write(ctx, name, data, opts)
		if attempt < editAttempts && (errors.Is(err, files.ErrChanged) || opts.NoReplace && errors.Is(err, fs.ErrExist)) {
			continue
		}
		return w, err
	}
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

// derivedName is the default name of a file made from src: its name with
// a suffix and an extension ("photo-1024x768.jpg").
func derivedName(src, suffix, ext string) string {
	dir, base := path.Split(src)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if ext == "" {
		ext = path.Ext(base)
	}
	return dir + stem + suffix + ext
}

// buffer is where a helper writes a result before it is saved.
func buffer(n int) *bytes.Buffer { return bytes.NewBuffer(make([]byte, 0, n)) }
