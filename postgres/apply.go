package postgres

import (
	"context"
	"time"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/jackc/pgx/v5"
)

// apply records a change and its events in the transaction.
func (t *writeTx) apply(c driver.Change) (driver.Applied, error) {
	res, err := driver.ApplyChange(c, t.ix.now(), newID, changeWriter{t})
	return res, wrap("index", err)
}

// changeWriter is the transaction's SQL for driver.ApplyChange.
type changeWriter struct{ t *writeTx }

func (w changeWriter) InsertVersion(conversation string, v files.Version) error {
	return w.t.insertVersion(conversation, v)
}

func (w changeWriter) MarkDeleted(id string, now time.Time) error {
	return w.t.markDeleted(id, now.UnixNano())
}

func (w changeWriter) PutLive(rec files.Record, now time.Time) error {
	return w.t.putLive(rec, now.UnixNano())
}

func (w changeWriter) Prune(fileID string, keep int) ([]files.Version, error) {
	return w.t.prune(fileID, keep)
}

func (w changeWriter) DropUnkept(id string) error { return w.t.dropUnkept(id) }

func (w changeWriter) InsertEvent(ev files.Event) (files.Event, error) { return w.t.insertEvent(ev) }

func (t *writeTx) exec(sql string, args ...any) error {
	_, err := t.tx.Exec(t.ctx, sql, args...)
	return err
}

// putLive writes rec as a live file. Another live row with its name (one
// the caller did not know about) is marked deleted first, so the name
// stays unique. The three statements go in one round trip (a pipeline:
// the server still runs them one after another).
func (t *writeTx) putLive(rec files.Record, now int64) error {
	var b pgx.Batch
	b.Queue(`UPDATE files SET deleted_on = $1 WHERE conversation = $2 AND name = $3 AND deleted_on IS NULL AND id <> $4`,
		now, rec.Conversation, rec.Name, rec.ID)
	b.Queue(`DELETE FROM files WHERE conversation = $1 AND name = $2 AND deleted_on IS NOT NULL AND id <> $3
		AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`, rec.Conversation, rec.Name, rec.ID)
	b.Queue(insertLive, rec.ID, rec.Conversation, rec.Name, rec.MIME, rec.Size, rec.SHA256, max(rec.Version, 1), string(rec.Source),
		rec.Session, nanos(rec.Created), nanos(rec.Modified), rec.DiskTime, rec.DerivedFrom, rec.Blob)
	return t.tx.SendBatch(t.ctx, &b).Close()
}

// insertLive writes a row, live, where no other live row has its name.
const insertLive = `INSERT INTO files (id, conversation, name, mime_type, size, sha256, version, source,
		source_session_id, created_on, modified_on, deleted_on, disk_time, derived_from, blob)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12, $13, $14)
	ON CONFLICT (id) DO UPDATE SET name = excluded.name, mime_type = excluded.mime_type,
		size = excluded.size, sha256 = excluded.sha256, version = excluded.version,
		modified_on = excluded.modified_on, deleted_on = NULL, disk_time = excluded.disk_time,
		blob = excluded.blob`

// insertLive writes rec's row, live, where no other live row has its name.
func (t *writeTx) insertLive(rec files.Record) error {
	return t.exec(insertLive, rec.ID, rec.Conversation, rec.Name, rec.MIME, rec.Size, rec.SHA256, max(rec.Version, 1), string(rec.Source),
		rec.Session, nanos(rec.Created), nanos(rec.Modified), rec.DiskTime, rec.DerivedFrom, rec.Blob)
}

func (t *writeTx) markDeleted(id string, now int64) error {
	return t.exec(markDeleted, now, id)
}

// dropUnkept removes the row of a deleted file that has no versions left:
// nothing of it can be restored any more.
func (t *writeTx) dropUnkept(id string) error {
	return t.exec(dropIfBare, id, id)
}

func (t *writeTx) insertVersion(conversation string, v files.Version) error {
	return t.exec(keepVersion,
		v.FileID, v.Version, conversation, v.Name, v.MIME, v.Size, v.SHA256, nanos(v.Saved), nanos(v.Kept), v.Reason, v.Blob)
}

// prune drops the versions of a file beyond the newest keep and returns
// them, so their bytes can be removed.
func (t *writeTx) prune(fileID string, keep int) ([]files.Version, error) {
	rows, err := t.tx.Query(t.ctx, `DELETE FROM versions WHERE file_id = $1 AND version IN (
			SELECT version FROM versions WHERE file_id = $1 ORDER BY version DESC OFFSET $2)
		RETURNING version, size, blob`, fileID, max(keep, 0))
	if err != nil {
		return nil, err
	}
	var out []files.Version
	for rows.Next() {
		v := files.Version{FileID: fileID}
		var n int32
		if err := rows.Scan(&n, &v.Size, &v.Blob); err != nil {
			rows.Close()
			return nil, err
		}
		v.Version = int(n)
		out = append(out, v)
	}
	return out, rows.Err()
}

// RemoveConversation drops every row of a conversation and records one
// conversation:deleted event.
func (ix *Index) RemoveConversation(ctx context.Context, conversation string) ([]files.Event, error) {
	var evs []files.Event
	err := ix.inTx(ctx, func(t *writeTx) error {
		if err := t.lock(conversation); err != nil {
			return err
		}
		for _, q := range []string{dropConversationVersions, dropConversationFiles,
			dropConversationUsage} {
			if err := t.exec(q, conversation); err != nil {
				return err
			}
		}
		ev, err := t.insertEvent(files.Event{Type: files.ConversationDeleted, Conversation: conversation, Time: ix.now()})
		evs = append(evs, ev)
		return err
	})
	return evs, wrap("remove conversation", err)
}
