package postgres

import (
	"context"
	"errors"

	"convfiles/files"
	"convfiles/internal/sqltext"

	"github.com/jackc/pgx/v5"
)

func scanRecord(row pgx.Row) (files.Record, error) {
	var rec files.Record
	var source string
	var created, modified int64
	var deleted *int64
	var version int32
	err := row.Scan(&rec.ID, &rec.Conversation, &rec.Name, &rec.MIME, &rec.Size, &rec.SHA256, &version,
		&source, &rec.Session, &created, &modified, &deleted, &rec.DiskTime, &rec.DerivedFrom, &rec.Blob)
	if err != nil {
		return rec, err
	}
	rec.Version, rec.Source = int(version), files.Source(source)
	rec.Created, rec.Modified = fromNanos(created), fromNanos(modified)
	if deleted != nil {
		t := fromNanos(*deleted)
		rec.Deleted = &t
	}
	return rec, nil
}

// Lookup returns the live file (conversation, name).
func (ix *Index) Lookup(ctx context.Context, conversation, name string) (files.Record, error) {
	return lookup(ctx, ix.pool, conversation, name)
}

// ByID returns a file by ID, live or deleted.
func (ix *Index) ByID(ctx context.Context, id string) (files.Record, error) {
	return byID(ctx, ix.pool, id)
}

func lookup(ctx context.Context, q querier, conversation, name string) (files.Record, error) {
	rec, err := scanRecord(q.QueryRow(ctx, lookupFile, conversation, name))
	if errors.Is(err, pgx.ErrNoRows) {
		return rec, files.E("find", files.KindNotFound, name, "no such file", nil)
	}
	return rec, wrap("find", err)
}

func byID(ctx context.Context, q querier, id string) (files.Record, error) {
	rec, err := scanRecord(q.QueryRow(ctx, fileByID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return rec, files.E("find", files.KindNotFound, id, "no file has this ID", nil)
	}
	return rec, wrap("find", err)
}

// Versions lists a file's kept versions, newest first.
func (ix *Index) Versions(ctx context.Context, fileID string) ([]files.Version, error) {
	rows, err := ix.pool.Query(ctx, versionsOf, fileID)
	if err != nil {
		return nil, wrap("list versions", err)
	}
	out := []files.Version{}
	for rows.Next() {
		var v files.Version
		var saved, kept int64
		var n int32
		if err := rows.Scan(&v.FileID, &n, &v.Name, &v.MIME, &v.Size, &v.SHA256, &saved, &kept, &v.Reason, &v.Blob); err != nil {
			rows.Close()
			return nil, wrap("list versions", err)
		}
		v.Version, v.Saved, v.Kept = int(n), fromNanos(saved), fromNanos(kept)
		out = append(out, v)
	}
	return out, wrap("list versions", rows.Err())
}

// Conversations summarizes every conversation with files or versions;
// made folders' .keep files (files.IsKeepFile) are not counted.
func (ix *Index) Conversations(ctx context.Context) ([]files.ConversationInfo, error) {
	rows, err := ix.pool.Query(ctx, `
		SELECT c, SUM(n)::bigint, SUM(b)::bigint, SUM(vb)::bigint, MAX(m) FROM (
			SELECT conversation AS c, COUNT(*) FILTER (WHERE size <> 0 OR (name <> '.keep' AND name NOT LIKE '%/.keep')) AS n,
				SUM(size)::bigint AS b, 0::bigint AS vb, MAX(modified_on) AS m
				FROM files WHERE deleted_on IS NULL GROUP BY conversation
			UNION ALL
			SELECT conversation, 0::bigint, 0::bigint, SUM(size)::bigint, MAX(kept_on) FROM versions GROUP BY conversation
		) AS u GROUP BY c ORDER BY c COLLATE "C"`)
	if err != nil {
		return nil, wrap("list conversations", err)
	}
	var out []files.ConversationInfo
	for rows.Next() {
		var c files.ConversationInfo
		var n, b, vb, modified int64
		if err := rows.Scan(&c.ID, &n, &b, &vb, &modified); err != nil {
			rows.Close()
			return nil, wrap("list conversations", err)
		}
		c.Files, c.Bytes, c.VersionBytes, c.Modified = int(n), b, vb, fromNanos(modified)
		out = append(out, c)
	}
	return out, wrap("list conversations", rows.Err())
}

// ConversationIDs lists every conversation the index holds rows for.
func (ix *Index) ConversationIDs(ctx context.Context) ([]string, error) {
	rows, err := ix.pool.Query(ctx, sqltext.DistinctConversations)
	if err != nil {
		return nil, wrap("list conversations", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return out, wrap("list conversations", err)
}
