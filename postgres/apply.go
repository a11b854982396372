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

// The statements whose answers ApplyChange does not read are put off
// (see later) and go with the next one it reads: an overwrite's kept
// version, live row, pruning and dropped rows go in one round trip with
// its event.

func (w changeWriter) InsertVersion(conversation string, v files.Version) error {
	w.t.later(keepVersion,
		v.FileID, v.Version, conversation, v.Name, v.MIME, v.Size, v.SHA256, nanos(v.Saved), nanos(v.Kept), v.Reason, v.Blob)
	return nil
}

func (w changeWriter) MarkDeleted(id string, now time.Time) error {
	w.t.later(markDeleted, now.UnixNano(), id)
	return nil
}

// PutLive writes rec as a live file. Another live row with its name (one
// the caller did not know about) is marked deleted first, so the name
// stays unique.
func (w changeWriter) PutLive(rec files.Record, now time.Time) error {
	w.t.later(`UPDATE files SET deleted_on = $1 WHERE conversation = $2 AND name = $3 AND deleted_on IS NULL AND id <> $4`,
		now.UnixNano(), rec.Conversation, rec.Name, rec.ID)
	w.t.later(`DELETE FROM files WHERE conversation = $1 AND name = $2 AND deleted_on IS NOT NULL AND id <> $3
		AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`, rec.Conversation, rec.Name, rec.ID)
	w.t.later(insertLive, rec.ID, rec.Conversation, rec.Name, rec.MIME, rec.Size, rec.SHA256, max(rec.Version, 1), string(rec.Source),
		rec.Session, nanos(rec.Created), nanos(rec.Modified), rec.DiskTime, rec.DerivedFrom, rec.Blob)
	return nil
}

func (w changeWriter) Prune(fileID string, keep int) ([]files.Version, error) {
	return w.t.prune(fileID, keep)
}

// DropUnkept removes the row of a deleted file that has no versions left:
// nothing of it can be restored any more.
func (w changeWriter) DropUnkept(id string) error {
	w.t.later(dropIfBare, id, id)
	return nil
}

func (w changeWriter) InsertEvent(ev files.Event) (files.Event, error) { return w.t.insertEvent(ev) }

// exec runs a statement now, in one round trip with any put off.
func (t *writeTx) exec(sql string, args ...any) error {
	var b pgx.Batch
	b.Queue(sql, args...)
	br, err := t.sendWith(&b)
	if err != nil {
		return err
	}
	_, err = br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return err
}

// insertLive writes a row, live, where no other live row has its name.
const insertLive = `INSERT INTO files (id, conversation, name, mime_type, size, sha256, version, source,
		source_session_id, created_on, modified_on, deleted_on, disk_time, derived_from, blob)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12, $13, $14)
	ON CONFLICT (id) DO UPDATE SET name = excluded.name, mime_type = excluded.mime_type,
		size = excluded.size, sha256 = excluded.sha256, version = excluded.version,
		modified_on = excluded.modified_on, deleted_on = NULL, disk_time = excluded.disk_time,
		blob = excluded.blob`

// prune drops the versions of a file beyond the newest keep. The
// statement is put off like the others; the versions it dropped are read
// when its round trip comes back, into t.pruned, and Apply returns them,
// so their bytes can be removed.
func (t *writeTx) prune(fileID string, keep int) ([]files.Version, error) {
	t.laterRead(func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v := files.Version{FileID: fileID}
			var n int32
			if err := rows.Scan(&n, &v.Size, &v.Blob); err != nil {
				return err
			}
			v.Version = int(n)
			t.pruned = append(t.pruned, v)
		}
		return rows.Err()
	}, `DELETE FROM versions WHERE file_id = $1 AND version IN (
			SELECT version FROM versions WHERE file_id = $1 ORDER BY version DESC OFFSET $2)
		RETURNING version, size, blob`, fileID, max(keep, 0))
	return nil, nil // read with the change's next statement into t.pruned, which Apply returns
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
