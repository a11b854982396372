package sqlite

import (
	"context"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"
)

// apply records a change and its events in the transaction tx.
func (ix *Index) apply(tx *stmtTx, c driver.Change) (driver.Applied, error) {
	res, err := driver.ApplyChange(c, ix.now(), newID, changeWriter{ix, tx})
	return res, wrap("index", err)
}

// changeWriter is the transaction's SQL for driver.ApplyChange.
type changeWriter struct {
	ix *Index
	tx *stmtTx
}

func (w changeWriter) InsertVersion(conversation string, v files.Version) error {
	return insertVersion(w.tx, conversation, v)
}

func (w changeWriter) MarkDeleted(id string, now time.Time) error { return markDeleted(w.tx, id, now) }

func (w changeWriter) PutLive(rec files.Record, now time.Time) error { return putLive(w.tx, rec, now) }

func (w changeWriter) Prune(fileID string, keep int) ([]files.Version, error) {
	return prune(w.tx, fileID, keep)
}

func (w changeWriter) DropUnkept(id string) error { return dropUnkept(w.tx, id) }

func (w changeWriter) InsertEvent(ev files.Event) (files.Event, error) {
	return w.ix.insertEvent(w.tx, ev)
}

// putLive writes rec as a live file. Another live row with its name (one
// the caller did not know about) is marked deleted first, so the name stays
// unique.
func putLive(tx *stmtTx, rec files.Record, now time.Time) error {
	_, err := tx.Exec(`UPDATE files SET deleted_on = ? WHERE conversation = ? AND name = ? AND deleted_on IS NULL AND id != ?`,
		stamp(now), rec.Conversation, rec.Name, rec.ID)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`DELETE FROM files WHERE conversation = ? AND name = ? AND deleted_on IS NOT NULL AND id != ?
		AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`, rec.Conversation, rec.Name, rec.ID)
	if err != nil {
		return err
	}
	return insertLive(tx, rec)
}

// insertLive writes rec's row, live, where no other live row has its
// name.
func insertLive(tx *stmtTx, rec files.Record) error {
	_, err := tx.Exec(`INSERT INTO files (id, conversation, name, mime_type, size, sha256, version, source,
			source_session_id, disk_path, created_on, modified_on, deleted_on, disk_time, derived_from, blob)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, mime_type = excluded.mime_type,
			size = excluded.size, sha256 = excluded.sha256, version = excluded.version,
			disk_path = excluded.disk_path, modified_on = excluded.modified_on, deleted_on = NULL,
			disk_time = excluded.disk_time, blob = excluded.blob`,
		rec.ID, rec.Conversation, rec.Name, rec.MIME, rec.Size, rec.SHA256, max(rec.Version, 1), string(rec.Source),
		rec.Session, rec.Conversation+"/"+rec.Name, stamp(rec.Created), stamp(rec.Modified), rec.DiskTime, rec.DerivedFrom, rec.Blob)
	return err
}

func markDeleted(tx *stmtTx, id string, now time.Time) error {
	_, err := tx.Exec(sqltext.MarkDeleted, stamp(now), id)
	return err
}

// dropUnkept removes the row of a deleted file that has no versions left:
// nothing of it can be restored any more.
func dropUnkept(tx *stmtTx, id string) error {
	_, err := tx.Exec(sqltext.DropIfBare, id, id)
	return err
}

func insertVersion(tx *stmtTx, conversation string, v files.Version) error {
	// An upsert, not INSERT OR REPLACE: the usage triggers see an update,
	// where REPLACE would delete without firing them.
	_, err := tx.Exec(sqltext.KeepVersion,
		v.FileID, v.Version, conversation, v.Name, v.MIME, v.Size, v.SHA256, stamp(v.Saved), stamp(v.Kept), v.Reason, v.Blob)
	return err
}

// prune drops the versions of a file beyond the newest keep and returns
// them, so their bytes can be removed.
func prune(tx *stmtTx, fileID string, keep int) ([]files.Version, error) {
	rows, err := tx.Query(`SELECT version, size, blob FROM versions WHERE file_id = ? ORDER BY version DESC LIMIT -1 OFFSET ?`, fileID, max(keep, 0))
	if err != nil {
		return nil, err
	}
	var out []files.Version
	for rows.Next() {
		v := files.Version{FileID: fileID}
		if err := rows.Scan(&v.Version, &v.Size, &v.Blob); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, v)
	}
	rows.Close()
	for _, v := range out {
		if _, err := tx.Exec(`DELETE FROM versions WHERE file_id = ? AND version = ?`, fileID, v.Version); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// RemoveConversation drops every row of a conversation and records one
// conversation:deleted event.
func (ix *Index) RemoveConversation(ctx context.Context, conversation string) ([]files.Event, error) {
	var evs []files.Event
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		if _, err := tx.Exec(sqltext.DropConversationVersions, conversation); err != nil {
			return err
		}
		if _, err := tx.Exec(sqltext.DropConversationFiles, conversation); err != nil {
			return err
		}
		if _, err := tx.Exec(sqltext.DropConversationUsage, conversation); err != nil {
			return err
		}
		ev, err := ix.insertEvent(tx, files.Event{Type: files.ConversationDeleted, Conversation: conversation, Time: ix.now()})
		evs = append(evs, ev)
		return err
	})
	return evs, wrap("remove conversation", err)
}

// inTx runs fn in a write transaction. It begins IMMEDIATE: it holds
// SQLite's write lock from the start, so every other writer of this index
// file, in this process or another, waits until the transaction has
// committed or rolled back instead of failing half-way. An error from fn,
// or a panic, rolls everything back.
func (ix *Index) inTx(ctx context.Context, fn func(*stmtTx) error) (err error) {
	tx, err := ix.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	stx := &stmtTx{Tx: tx, ix: ix}
	if err = fn(stx); err != nil {
		return err
	}
	if err = tx.Commit(); err == nil {
		stx.prepare()
	}
	return err
}
