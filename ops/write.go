package ops

import (
	"context"
	"encoding/base64"

	"convfiles/content"
	"convfiles/files"
	"convfiles/formats"
	"fmt"
	"strings"
)

// CreateIn makes a new file, empty or with text.
type CreateIn struct {
	Name    string `json:"name"`
	Content string `json:"content,omitempty"`
	MIME    string `json:"mime_type,omitempty"` // accepted as seed 004 has it; the type is sniffed from the bytes
}

// IDName answers the operations that make or move a file.
type IDName struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

func (env Env) idName(info files.Info) IDName {
	id := info.ID
	if id == "" {
		id = info.Name
	}
	return IDName{ID: id, Name: info.Name, URL: env.link(info.Name)}
}

// Create is file_create, files.create: a file that does not exist yet; a
// name that is taken is a conflict. Without content, a .pdf (or a name
// declared application/pdf) is a document of one blank page and an .xlsx
// a workbook of one sheet, which the format operations take. A declared
// mime_type the bytes and name contradict is refused: the type recorded
// is always the one the bytes have.
func Create(ctx context.Context, env Env, in CreateIn) (IDName, error) {
	opts := env.Write
	opts.NoReplace = true
	data := []byte(in.Content)
	if in.Content == "" {
		blank, err := formats.BlankDocument(in.Name, in.MIME)
		if err != nil {
			return IDName{}, files.E("create", files.KindInvalid, in.Name, err.Error(), nil)
		}
		data = blank
	}
	if err := checkDeclaredMIME(in.Name, in.MIME, data); err != nil {
		return IDName{}, err
	}
	info, err := env.Space.WriteBytes(ctx, in.Name, data, opts)
	if err != nil {
		return IDName{}, err
	}
	env.touched(info.Name, files.Wrote)
	return env.idName(info), nil
}

// WriteTextIn replaces a file's content with text.
type WriteTextIn struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	// IfVersion, when set, is the version the text was read at (a file's
	// "version" field): the write is refused as a conflict when the file
	// has changed since, by any writer, so an edit never silently undoes
	// another. 0 replaces whatever is there.
	IfVersion int `json:"if_version,omitempty"`
}

// SizeOut answers a write with the file's size after it.
type SizeOut struct {
	OK   bool  `json:"ok"`
	Size int64 `json:"size"`
}

// WriteText is file_write_text, files.writeText: the file by that ID or
// name gets the text (made when it does not exist; the content it
// replaces is kept as a version).
func WriteText(ctx context.Context, env Env, in WriteTextIn) (SizeOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return SizeOut{}, err
	}
	opts := env.Write
	if in.IfVersion != 0 {
		base, err := atVersion(ctx, env.Space, name, in.IfVersion)
		if err != nil {
			return SizeOut{}, err
		}
		opts.IfUnchanged = &base
	}
	info, err := env.Space.WriteBytes(ctx, name, []byte(in.Content), opts)
	if err != nil {
		return SizeOut{}, err
	}
	env.touched(info.Name, files.Wrote)
	return SizeOut{OK: true, Size: info.Size}, nil
}

// atVersion is the file as it is now, when it is still at version n: the
// base a write given IfUnchanged commits on only if nobody wrote since.
// The bytes are looked at before the version, so a write landing between
// the two makes a conflict, never a base newer than n.
func atVersion(ctx context.Context, sp files.Ops, name string, n int) (files.Info, error) {
	const op = "write_text"
	changed := func(what string) error {
		return files.E(op, files.KindConflict, name, fmt.Sprintf("%s since version %d was read: read it again, then make the change on what it holds now", what, n), files.ErrChanged)
	}
	blob, info, err := sp.Open(ctx, name)
	if files.KindOf(err) == files.KindNotFound {
		return files.Info{}, changed("the file was deleted")
	}
	if err != nil {
		return files.Info{}, err
	}
	blob.Close()
	rec, err := sp.Record(ctx, name)
	if err != nil {
		return files.Info{}, err
	}
	if rec.Version != n {
		return files.Info{}, changed(fmt.Sprintf("the file changed (it is at version %d now)", rec.Version))
	}
	return info, nil
}

// AppendIn appends base64 bytes.
type AppendIn struct {
	ID   string `json:"id"`
	Data string `json:"data"`
}

// decode64 decodes the data of a byte write.
func decode64(op, name, data string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, files.E(op, files.KindInvalid, name, "the data must be standard base64", nil)
	}
	return b, nil
}

// AppendBytes is files.appendBytes: the bytes go after whatever the file
// holds when they land, even when other writers appended meanwhile.
func AppendBytes(ctx context.Context, env Env, in AppendIn) (SizeOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return SizeOut{}, err
	}
	data, err := decode64("append_bytes", name, in.Data)
	if err != nil {
		return SizeOut{}, err
	}
	w, err := env.Space.NewWriter(ctx, name, env.Write, true)
	if err != nil {
		return SizeOut{}, err
	}
	defer w.Abort()
	if _, err := w.Write(data); err != nil {
		return SizeOut{}, err
	}
	info, err := w.Commit()
	if err != nil {
		return SizeOut{}, err
	}
	env.touched(info.Name, files.Appended)
	return SizeOut{OK: true, Size: info.Size}, nil
}

// WriteBytesIn writes base64 bytes at an offset.
type WriteBytesIn struct {
	ID     string `json:"id"`
	Offset int64  `json:"offset"`
	Data   string `json:"data"`
}

// WriteBytes is files.writeBytes: the bytes replace those at the offset
// of the file as it is when they land.
func WriteBytes(ctx context.Context, env Env, in WriteBytesIn) (SizeOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return SizeOut{}, err
	}
	data, err := decode64("write_bytes", name, in.Data)
	if err != nil {
		return SizeOut{}, err
	}
	info, err := env.Space.WriteAt(ctx, name, in.Offset, data, env.Write)
	if err != nil {
		return SizeOut{}, err
	}
	env.touched(info.Name, files.Wrote)
	return SizeOut{OK: true, Size: info.Size}, nil
}

// ReplaceLinesIn replaces lines start..end (inclusive) with content.
type ReplaceLinesIn struct {
	ID        string `json:"id"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Content   string `json:"content"`
}

// LinesEdited answers a line edit with the file's line count after it.
type LinesEdited struct {
	OK         bool `json:"ok"`
	TotalLines int  `json:"total_lines"`
}

// ReplaceLines is file_replace_lines, files.replaceLines. It is redone
// over a concurrent change rather than writing over it.
func ReplaceLines(ctx context.Context, env Env, in ReplaceLinesIn) (LinesEdited, error) {
	if in.EndLine < in.StartLine {
		return LinesEdited{}, files.E("replace_lines", files.KindInvalid, in.ID, "end_line must be at least start_line; to insert without replacing, use insert_lines", nil)
	}
	return editLines(ctx, env, in.ID, in.StartLine, in.EndLine, in.Content)
}

// InsertLinesIn inserts content after a line (0: at the top).
type InsertLinesIn struct {
	ID        string `json:"id"`
	AfterLine int    `json:"after_line"`
	Content   string `json:"content"`
}

// InsertLines is file_insert_lines, files.insertLines.
func InsertLines(ctx context.Context, env Env, in InsertLinesIn) (LinesEdited, error) {
	if in.AfterLine < 0 {
		return LinesEdited{}, files.E("insert_lines", files.KindInvalid, in.ID, "after_line must be 0 (the top) or a line number", nil)
	}
	return editLines(ctx, env, in.ID, in.AfterLine+1, in.AfterLine, in.Content)
}

func editLines(ctx context.Context, env Env, id string, start, end int, text string) (LinesEdited, error) {
	name, err := env.Space.Resolve(ctx, id)
	if err != nil {
		return LinesEdited{}, err
	}
	total, err := env.Space.ReplaceLines(ctx, name, start, end, text, env.Write)
	if err != nil {
		return LinesEdited{}, err
	}
	env.touched(name, files.Wrote)
	return LinesEdited{OK: true, TotalLines: total}, nil
}

func init() {
	def(Op{Name: "create", JS: "create", Params: []string{"name", "mime_type"}, Tool: "file_create", Effect: Writes, SnakeJS: true}, Create)
	def(Op{Name: "write_text", JS: "writeText", Params: []string{"id", "content", "...options"}, Tool: "file_write_text", Effect: Destroys}, WriteText)
	def(Op{Name: "append_bytes", JS: "appendBytes", Params: []string{"id", "data"}, Tool: "file_append_bytes", Effect: Writes}, AppendBytes)
	def(Op{Name: "write_bytes", JS: "writeBytes", Params: []string{"id", "offset", "data"}, Tool: "file_write_bytes", Effect: Destroys}, WriteBytes)
	def(Op{Name: "replace_lines", JS: "replaceLines", Params: []string{"id", "start_line", "end_line", "content"}, Tool: "file_replace_lines",
		Effect: Destroys}, ReplaceLines)
	def(Op{Name: "insert_lines", JS: "insertLines", Params: []string{"id", "after_line", "content"}, Tool: "file_insert_lines", Effect: Writes},
		InsertLines)
}

// checkDeclaredMIME refuses a MIME type a caller declares for a new file
// when the file's name and bytes say otherwise. convfiles records the
// type the bytes have, so a declared type is never a way to serve bytes
// as something they are not; a declaration that agrees, that names a
// kind of text for text, or any type for an empty file of no known kind,
// is taken.
func checkDeclaredMIME(name, declared string, data []byte) error {
	if declared == "" {
		return nil
	}
	declared = strings.ToLower(strings.TrimSpace(declared))
	if i := strings.IndexByte(declared, ';'); i >= 0 {
		declared = strings.TrimSpace(declared[:i])
	}
	head := data[:min(len(data), content.SniffLen)] // as the index sniffs it: the head, never the whole file
	kind, sniffed := content.Detect(name, head, len(head) == len(data))
	switch {
	case declared == sniffed, sniffed == "application/octet-stream" && len(data) == 0:
		return nil
	case kind == content.KindText && (strings.HasPrefix(declared, "text/") || declared == "application/json" || strings.HasSuffix(declared, "+json")):
		return nil
	}
	return files.E("create", files.KindInvalid, name, fmt.Sprintf(
		"mime_type %s does not match the file: its name and content make it %s. convfiles records the type the bytes have; leave mime_type out, or name the file for its type", declared, sniffed), nil)
}
