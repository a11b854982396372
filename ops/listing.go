package ops

import (
	"context"
	"encoding/json"
	"time"

	"convfiles/content"
	"convfiles/files"
)

// Entry is seed 004's file object, plus the file's link.
type Entry struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Size       int64  `json:"size"`
	MIME       string `json:"mime_type"`
	ModifiedOn string `json:"modified_on"`
	URL        string `json:"url,omitempty"`
}

// entryOf is a record as an Entry. A folder without an index has no IDs:
// there a file's ID is its name.
func (env Env) entryOf(rec files.Record) Entry {
	id := rec.ID
	if id == "" {
		id = rec.Name
	}
	return Entry{ID: id, Name: rec.Name, Size: rec.Size, MIME: content.RecordedMIME(rec.Name, rec.MIME),
		ModifiedOn: stamp(rec.Modified), URL: env.link(rec.Name)}
}

// stamp formats a time as every door shows it: RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Listing bounds: a page is at most MaxPage files.
const (
	DefaultPage = 1000
	MaxPage     = 1000
)

// ListIn asks for one page of a conversation's files.
type ListIn struct {
	Pattern string `json:"pattern,omitempty"`
	// Folder keeps only the files directly in a folder ("." for the top).
	Folder string `json:"folder,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Offset int    `json:"offset,omitempty"`
}

// ListOut is one page of files, sorted by name, and where the next starts.
type ListOut struct {
	Files      []Entry `json:"files"`
	Total      int     `json:"total"`
	NextOffset int     `json:"next_offset,omitempty"`
	// Cut says why a page holds fewer files than asked for and how to
	// get the rest: a page for a model is bounded in bytes.
	Cut string `json:"cut,omitempty"`
}

// List is file_list, files.list: the files whose names match a glob, a
// page at a time, from the index where there is one.
func List(ctx context.Context, env Env, in ListIn) (ListOut, error) {
	if in.Limit == 0 {
		in.Limit = DefaultPage
	}
	if in.Limit < 1 || in.Limit > MaxPage || in.Offset < 0 {
		return ListOut{}, files.E("list", files.KindInvalid, "", "limit is 1 to 1000 files a page and offset at least 0", nil)
	}
	var err error
	if in.Pattern != "" {
		if err = files.ValidateGlob(in.Pattern); err != nil {
			return ListOut{}, err
		}
	}
	q := files.ListQuery{Pattern: in.Pattern, Limit: in.Limit, Offset: in.Offset}
	if in.Folder != "" {
		if q.Prefix, err = FolderPrefix(in.Folder); err != nil {
			return ListOut{}, err
		}
		q.Direct = true
	}
	recs, total, err := env.Space.Find(ctx, q)
	if err != nil {
		return ListOut{}, err
	}
	out := ListOut{Files: make([]Entry, 0, len(recs)), Total: total}
	size := 0
	for _, rec := range recs {
		e := env.entryOf(rec)
		if env.MaxAnswer > 0 {
			if size += entrySize(e); size > env.MaxAnswer && len(out.Files) > 0 {
				out.Cut = cutNote(env.MaxAnswer, "offset", in.Offset+len(out.Files))
				break
			}
		}
		out.Files = append(out.Files, e)
	}
	if next := in.Offset + len(out.Files); next < total {
		out.NextOffset = next
	}
	return out, nil
}

// FolderPrefix is the listing prefix of a folder: "" for the top ("."
// or "/"), else the validated name and a slash.
func FolderPrefix(folder string) (string, error) {
	if folder == "." || folder == "/" {
		return "", nil
	}
	p, err := folderPath(folder)
	if err != nil {
		return "", err
	}
	return p + "/", nil
}

// IDIn names one file by its ID or its name.
type IDIn struct {
	ID string `json:"id"`
}

// InfoOut is the file object plus its type, origin, digest and version.
type InfoOut struct {
	Entry
	Type            string `json:"type"`
	Source          string `json:"source"`
	SourceSessionID string `json:"source_session_id"`
	DerivedFrom     string `json:"derived_from,omitempty"`
	CreatedOn       string `json:"created_on"`
	SHA256          string `json:"sha256"`
	Version         int    `json:"version"`
}

// Info is file_info, files.info.
func Info(ctx context.Context, env Env, in IDIn) (InfoOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return InfoOut{}, err
	}
	rec, err := env.Space.Record(ctx, name)
	if err != nil {
		return InfoOut{}, err
	}
	kind, mt, err := detect(ctx, env.Space, name)
	if err != nil {
		return InfoOut{}, err
	}
	out := InfoOut{Entry: env.entryOf(rec), Type: string(kind), Source: string(rec.Source), SourceSessionID: rec.Session,
		DerivedFrom: rec.DerivedFrom, CreatedOn: stamp(rec.Created), SHA256: rec.SHA256, Version: rec.Version}
	if rec.MIME == "" {
		out.MIME = mt
	}
	return out, nil
}

// detect sniffs a file's kind and MIME type from its first bytes.
func detect(ctx context.Context, sp files.Ops, name string) (content.Kind, string, error) {
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	kind, mt := content.DetectReader(info.Name, f, info.Size)
	return kind, mt, nil
}

func init() {
	def(Op{Name: "list", JS: "list", Params: []string{"pattern", "...options"}, Tool: "file_list", Effect: Reads,
		Unwrap: "files", SnakeJS: true}, List)
	def(Op{Name: "info", JS: "info", Params: []string{"id"}, Tool: "file_info", Effect: Reads, SnakeJS: true}, Info)
}

// entrySize is the bytes of an entry in a JSON answer.
func entrySize(e Entry) int {
	b, _ := json.Marshal(e)
	return len(b) + 1
}
