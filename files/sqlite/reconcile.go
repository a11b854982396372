package sqlite

import (
	"context"
	"time"

	"convfiles/files"
)

// reconcileBatch is how many new, changed or vanished files one
// transaction of a reconciliation commits: enough that the cost of a
// transaction vanishes among its rows, few enough that what is held at
// once (descriptions, events) stays small whatever the conversation holds.
const reconcileBatch = 2000

// Reconcile makes a conversation's rows match what its blobs hold: rows
// for new files, new descriptions for changed ones (their size or
// modification time differ), deletions for vanished ones, no rows for
// versions whose bytes are gone, and a list of version bytes without rows
// for the caller to remove. Each batch of changes is one transaction.
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
	orphans, err := ix.reconcileVersions(ctx, conversation, kept, in.Versions)
	return orphans, wrap("reconcile", err)
}

// liveStates returns the state of every live row of a conversation, by
// name.
func (ix *Index) liveStates(ctx context.Context, conversation string) (map[string]files.LiveState, error) {
	rows, err := ix.r.QueryContext(ctx, `SELECT name, id, size, disk_time FROM files
		WHERE conversation = ? AND deleted_on IS NULL`, conversation)
	if err != nil {
		return nil, wrap("reconcile", err)
	}
	defer rows.Close()
	out := map[string]files.LiveState{}
	for rows.Next() {
		var name string
		var st files.LiveState
		if err := rows.Scan(&name, &st.ID, &st.Size, &st.DiskTime); err != nil {
			return nil, wrap("reconcile", err)
		}
		out[name] = st
	}
	return out, wrap("reconcile", rows.Err())
}

// commitChanged records one batch of new and changed files in one
// transaction and returns its events.
func (ix *Index) commitChanged(ctx context.Context, conversation string, batch []files.PendingFile) ([]files.Event, error) {
	var events []files.Event
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		events = events[:0]
		now := ix.now()
		for _, p := range batch {
			if p.Err != nil {
				continue // vanished or unreadable: the next start-up tries again
			}
			ev, err := ix.recordStored(tx, conversation, p, now)
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
func (ix *Index) recordStored(tx *stmtTx, conversation string, p files.PendingFile, now time.Time) (files.Event, error) {
	d := p.File
	modified := time.Unix(0, d.DiskTime)
	var rec files.Record
	typ := files.FileCreated
	put := func(tx *stmtTx, rec files.Record, _ time.Time) error { return insertLive(tx, rec) }
	if p.Known {
		var err error
		if rec, err = byID(tx, p.Prev.ID); err != nil {
			return files.Event{}, err
		}
		if rec.Size == d.Size && rec.SHA256 == p.SHA {
			_, err := tx.Exec(`UPDATE files SET disk_time = ?, modified_on = ? WHERE id = ?`, d.DiskTime, stamp(modified), rec.ID)
			return files.Event{}, err
		}
		typ, put = files.FileModified, putLive
	} else { // no live row has its name; deleted ones without versions go in putLive
		rec = files.Record{ID: newID(), Conversation: conversation, Name: d.Name,
			Source: files.SourceCreated, Created: modified}
	}
	rec.MIME, rec.SHA256, rec.Size, rec.DiskTime, rec.Modified = p.MIME, p.SHA, d.Size, d.DiskTime, modified
	rec.Version++
	if err := put(tx, rec, now); err != nil {
		return files.Event{}, err
	}
	return ix.insertEvent(tx, files.Event{Type: typ, Conversation: conversation, ID: rec.ID, Name: rec.Name,
		Size: rec.Size, MIME: rec.MIME, Session: rec.Session, Time: now})
}

// dropVanished marks deleted, a batch per transaction, the live rows
// whose files the walk did not find.
func (ix *Index) dropVanished(ctx context.Context, conversation string, live map[string]files.LiveState, publish func([]files.Event)) error {
	for len(live) > 0 {
		var events []files.Event
		err := ix.inTx(ctx, func(tx *stmtTx) error {
			events = events[:0]
			now := ix.now()
			for name, st := range live {
				if len(events) == reconcileBatch {
					break
				}
				if err := markDeleted(tx, st.ID, now); err != nil {
					return err
				}
				ev, err := ix.insertEvent(tx, files.Event{Type: files.FileDeleted, Conversation: conversation, ID: st.ID, Name: name, Time: now})
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
