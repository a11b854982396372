package ops

import (
	"context"

	"convfiles/files"
)

// MaxDeletedPage bounds one page of deleted files: each costs a lookup
// of its versions.
const MaxDeletedPage = 100

// DeletedIn asks for a page of the conversation's deleted files, all of
// them or those whose names match Pattern (a glob, as file_list takes).
type DeletedIn struct {
	Pattern string `json:"pattern,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Offset  int    `json:"offset,omitempty"`
}

// DeletedEntry is a deleted file whose content is kept: restore its
// LastVersion to bring it back.
type DeletedEntry struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	MIME        string `json:"mime_type"`
	DeletedOn   string `json:"deleted_on"`
	LastVersion int    `json:"last_version"`
}

// DeletedOut is one page of deleted files, the most recently deleted
// first.
type DeletedOut struct {
	Files      []DeletedEntry `json:"files"`
	Total      int            `json:"total"`
	NextOffset int            `json:"next_offset,omitempty"`
}

// ListDeleted is file_list_deleted, files.listDeleted: what was deleted
// and can still be restored, newest first.
func ListDeleted(ctx context.Context, env Env, in DeletedIn) (DeletedOut, error) {
	if in.Limit == 0 {
		in.Limit = MaxDeletedPage
	}
	if in.Limit < 1 || in.Limit > MaxDeletedPage || in.Offset < 0 {
		return DeletedOut{}, files.E("list_deleted", files.KindInvalid, "", "limit is 1 to 100 files a page and offset at least 0", nil)
	}
	if err := files.ValidateGlob(in.Pattern); err != nil {
		return DeletedOut{}, err
	}
	recs, total, err := env.Space.Find(ctx, files.ListQuery{Deleted: true, Pattern: in.Pattern, Limit: in.Limit, Offset: in.Offset})
	if err != nil {
		return DeletedOut{}, err
	}
	out := DeletedOut{Files: make([]DeletedEntry, 0, len(recs)), Total: total}
	for _, rec := range recs {
		e := DeletedEntry{ID: rec.ID, Name: rec.Name, Size: rec.Size, MIME: rec.MIME}
		if rec.Deleted != nil {
			e.DeletedOn = stamp(*rec.Deleted)
		}
		if vs, err := env.Space.Versions(ctx, rec.ID); err == nil && len(vs) > 0 {
			e.LastVersion = vs[0].Version
		}
		out.Files = append(out.Files, e)
	}
	if next := in.Offset + len(recs); next < total {
		out.NextOffset = next
	}
	return out, nil
}

func init() {
	def(Op{Name: "list_deleted", JS: "listDeleted", Params: []string{"...options"}, Tool: "file_list_deleted", Effect: Reads,
		Unwrap: "files", SnakeJS: true}, ListDeleted)
}
