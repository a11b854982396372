package sqlite

import (
	"context"
	"database/sql"

	"convfiles/files"
	"convfiles/internal/sqltext"
)

type scanner interface{ Scan(...any) error }

func scanRecord(row scanner) (files.Record, error) {
	var rec files.Record
	var source, created, modified string
	var deleted sql.NullString
	err := row.Scan(&rec.ID, &rec.Conversation, &rec.Name, &rec.MIME, &rec.Size, &rec.SHA256, &rec.Version,
		&source, &rec.Session, &created, &modified, &deleted, &rec.DiskTime, &rec.DerivedFrom, &rec.Blob)
	if err != nil {
		return rec, err
	}
	rec.Source = files.Source(source)
	rec.Created, rec.Modified = parseStamp(created), parseStamp(modified)
	if deleted.Valid {
		t := parseStamp(deleted.String)
		rec.Deleted = &t
	}
	return rec, nil
}

// Lookup returns the live file (conversation, name).
func (ix *Index) Lookup(ctx context.Context, conversation, name string) (files.Record, error) {
	return lookup(ctxRower{ctx, ix.r}, conversation, name)
}

// ByID returns a file by ID, live or deleted.
func (ix *Index) ByID(ctx context.Context, id string) (files.Record, error) {
	return byID(ctxRower{ctx, ix.r}, id)
}

// Versions lists a file's kept versions, newest first.
func (ix *Index) Versions(ctx context.Context, fileID string) ([]files.Version, error) {
	rows, err := ix.r.QueryContext(ctx, sqltext.VersionsOf, fileID)
	if err != nil {
		return nil, wrap("list versions", err)
	}
	defer rows.Close()
	out := []files.Version{}
	for rows.Next() {
		var v files.Version
		var saved, kept string
		if err := rows.Scan(&v.FileID, &v.Version, &v.Name, &v.MIME, &v.Size, &v.SHA256, &saved, &kept, &v.Reason, &v.Blob); err != nil {
			return nil, wrap("list versions", err)
		}
		v.Saved, v.Kept = parseStamp(saved), parseStamp(kept)
		out = append(out, v)
	}
	return out, wrap("list versions", rows.Err())
}

// Conversations summarizes every conversation with files or versions;
// made folders' .keep files (files.IsKeepFile) are not counted.
func (ix *Index) Conversations(ctx context.Context) ([]files.ConversationInfo, error) {
	rows, err := ix.r.QueryContext(ctx, `
		SELECT c, SUM(n), SUM(b), SUM(vb), MAX(m) FROM (
			SELECT conversation AS c, SUM(size <> 0 OR (name <> '.keep' AND name NOT GLOB '*/.keep')) AS n,
				SUM(size) AS b, 0 AS vb, MAX(modified_on) AS m
				FROM files WHERE deleted_on IS NULL GROUP BY conversation
			UNION ALL
			SELECT conversation, 0, 0, SUM(size), MAX(kept_on) FROM versions GROUP BY conversation
		) GROUP BY c ORDER BY c`)
	if err != nil {
		return nil, wrap("list conversations", err)
	}
	defer rows.Close()
	var out []files.ConversationInfo
	for rows.Next() {
		var c files.ConversationInfo
		var modified string
		if err := rows.Scan(&c.ID, &c.Files, &c.Bytes, &c.VersionBytes, &modified); err != nil {
			return nil, wrap("list conversations", err)
		}
		c.Modified = parseStamp(modified)
		out = append(out, c)
	}
	return out, wrap("list conversations", rows.Err())
}

// ConversationIDs lists every conversation the index holds rows for.
func (ix *Index) ConversationIDs(ctx context.Context) ([]string, error) {
	rows, err := ix.r.QueryContext(ctx, sqltext.DistinctConversations)
	if err != nil {
		return nil, wrap("list conversations", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("list conversations", err)
		}
		out = append(out, id)
	}
	return out, wrap("list conversations", rows.Err())
}
