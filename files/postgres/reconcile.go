package postgres

import (
	"context"
	"time"

	"convfiles/files"

	"github.com/jackc/pgx/v5"
)

// reconcileBatch is how many new, changed or vanished files one
// transaction of a reconciliation commits.
const reconcileBatch = 2000

// Reconcile makes a conversation's rows match what its blobs hold (see
// files.Index): rows for new files, new descriptions for changed ones,
// deletions for vanished ones, no rows for versions whose bytes are gone,
// and the version bytes without rows for the caller to remove.
func (ix *Index) Reconcile(ctx context.Context, conversation string, in files.Reconciliation) (map[string][]int, error) {
	live, err := ix.liveStates(ctx, conversation)
	if err != nil {
		return nil, err
	}
	kept, err := ix.keptVersions(ctx, conversation)
	if err != nil {
		return nil, err
	}
	publish := in.Publish
	if publish == nil {
		publish = func([]files.Event) {}
	}
	if in.Walk != nil {
		err := files.WalkChanged(ctx, in.Walk, live, reconcileBatch, func(ctx context.Context, batch []files.PendingFile) error {
			evs, err := ix.commitChanged(ctx, conversation, batch)
			if err == nil {
				publish(evs)
			}
			return err
		})
		if err != nil {
			return nil, wrap("reconcile", err)
		}
	}
	if err := ix.dropVanished(ctx, conversation, live, publish); err != nil {
		return nil, wrap("reconcile", err)
	}
	orphans, gone := files.OrphanVersions(kept, in.Versions)
	err = ix.inTx(ctx, func(t *writeTx) error {
		if err := t.lock(conversation); err != nil {
			return err
		}
		for _, k := range gone {
			if err := t.exec(`DELETE FROM versions WHERE file_id = $1 AND version = $2`, k.FileID, k.Version); err != nil {
				return err
			}
		}
		return t.exec(`DELETE FROM files WHERE conversation = $1 AND deleted_on IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`, conversation)
	})
	return orphans, wrap("reconcile", err)
}

func (ix *Index) liveStates(ctx context.Context, conversation string) (map[string]files.LiveState, error) {
	rows, err := ix.pool.Query(ctx, `SELECT name, id, size, disk_time FROM files
		WHERE conversation = $1 AND deleted_on IS NULL`, conversation)
	if err != nil {
		return nil, wrap("reconcile", err)
	}
	out := map[string]files.LiveState{}
	for rows.Next() {
		var name string
		var st files.LiveState
		if err := rows.Scan(&name, &st.ID, &st.Size, &st.DiskTime); err != nil {
			rows.Close()
			return nil, wrap("reconcile", err)
		}
		out[name] = st
	}
	return out, wrap("reconcile", rows.Err())
}

func (ix *Index) keptVersions(ctx context.Context, conversation string) (map[files.VersionKey]bool, error) {
	rows, err := ix.pool.Query(ctx, `SELECT file_id, version FROM versions WHERE conversation = $1`, conversation)
	if err != nil {
		return nil, wrap("reconcile", err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (files.VersionKey, error) {
		var k files.VersionKey
		var n int32
		err := r.Scan(&k.FileID, &n)
		k.Version = int(n)
		return k, err
	})
	out := map[files.VersionKey]bool{}
	for _, k := range keys {
		out[k] = true
	}
	return out, wrap("reconcile", err)
}

// commitChanged records one batch of new and changed files in one
// transaction and returns its events.
func (ix *Index) commitChanged(ctx context.Context, conversation string, batch []files.PendingFile) ([]files.Event, error) {
	var events []files.Event
	err := ix.inTx(ctx, func(t *writeTx) error {
		events = events[:0]
		if err := t.lock(conversation); err != nil {
			return err
		}
		now := ix.now()
		for _, p := range batch {
			if p.Err != nil {
				continue // vanished or unreadable: the next start-up tries again
			}
			ev, err := t.recordStored(conversation, p, now)
			if err != nil {
				return err
			}
			if ev.Type != "" {
				events = append(events, ev)
			}
		}
		return nil
	})
	return events, err
}

// recordStored writes the row of one new or changed file and returns its
// event; a file touched but not changed keeps its version and has none.
func (t *writeTx) recordStored(conversation string, p files.PendingFile, now time.Time) (files.Event, error) {
	d := p.File
	modified := time.Unix(0, d.DiskTime)
	var rec files.Record
	typ := files.FileCreated
	put := func(rec files.Record) error { return t.insertLive(rec) }
	if p.Known {
		var err error
		if rec, err = byID(t.ctx, t.tx, p.Prev.ID); err != nil {
			return files.Event{}, err
		}
		if rec.Size == d.Size && rec.SHA256 == p.SHA {
			return files.Event{}, t.exec(`UPDATE files SET disk_time = $1, modified_on = $2 WHERE id = $3`, d.DiskTime, d.DiskTime, rec.ID)
		}
		typ, put = files.FileModified, func(rec files.Record) error { return t.putLive(rec, now.UnixNano()) }
	} else {
		rec = files.Record{ID: newID(), Conversation: conversation, Name: d.Name, Source: files.SourceCreated, Created: modified}
	}
	rec.MIME, rec.SHA256, rec.Size, rec.DiskTime, rec.Modified = p.MIME, p.SHA, d.Size, d.DiskTime, modified
	rec.Version++
	if err := put(rec); err != nil {
		return files.Event{}, err
	}
	return t.insertEvent(files.Event{Type: typ, Conversation: conversation, ID: rec.ID, Name: rec.Name,
		Size: rec.Size, MIME: rec.MIME, Session: rec.Session, Time: now})
}

// dropVanished marks deleted, a batch per transaction, the live rows
// whose files the walk did not find.
func (ix *Index) dropVanished(ctx context.Context, conversation string, live map[string]files.LiveState, publish func([]files.Event)) error {
	for len(live) > 0 {
		var events []files.Event
		err := ix.inTx(ctx, func(t *writeTx) error {
			events = events[:0]
			if err := t.lock(conversation); err != nil {
				return err
			}
			now := ix.now()
			for name, st := range live {
				if len(events) == reconcileBatch {
					break
				}
				if err := t.markDeleted(st.ID, now.UnixNano()); err != nil {
					return err
				}
				ev, err := t.insertEvent(files.Event{Type: files.FileDeleted, Conversation: conversation, ID: st.ID, Name: name, Time: now})
				if err != nil {
					return err
				}
				events = append(events, ev)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, ev := range events {
			delete(live, ev.Name)
		}
		publish(events)
	}
	return nil
}
