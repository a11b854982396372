package sqlite

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"convfiles/files"
)

// reconcileBatch is how many new, changed or vanished files one
// transaction of a reconciliation commits: enough that the cost of a
// transaction vanishes among its rows, few enough that what is held at
// once (descriptions, events) stays small whatever the conversation holds.
const reconcileBatch = 2000

// liveState is what a reconciliation keeps of a live row to tell whether
// its file changed: a few dozen bytes, not a whole Record.
type liveState struct {
	id             string
	size, diskTime int64
}

// pending is a stored file that the index does not know in this state.
type pending struct {
	d     files.DiskFile
	prev  liveState
	known bool
	desc  description
}

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
		if err := ix.reconcileStored(ctx, conversation, in.Walk, live, publish); err != nil {
			return nil, wrap("reconcile", err)
		}
	}
	if err := ix.dropVanished(ctx, conversation, live, publish); err != nil {
		return nil, wrap("reconcile", err)
	}
	orphans, err := ix.reconcileVersions(ctx, conversation, kept, in.Versions)
	return orphans, wrap("reconcile", err)
}

// reconcileStored records the new and changed files that walk finds,
// and takes the files it finds out of live. Two stages overlap: one walks
// and describes a batch (on every core) while the other commits the one
// before, so at most three batches are held at once.
func (ix *Index) reconcileStored(ctx context.Context, conversation string, walk func(func(files.DiskFile) error) error,
	live map[string]liveState, publish func([]files.Event)) error {
	g, gctx := errgroup.WithContext(ctx)
	described := make(chan []pending, 1)
	g.Go(func() error {
		for batch := range described {
			evs, err := ix.commitChanged(gctx, conversation, batch)
			if err != nil {
				return err
			}
			publish(evs)
		}
		return nil
	})
	g.Go(func() error {
		defer close(described)
		batch := make([]pending, 0, reconcileBatch)
		send := func() error {
			if len(batch) == 0 {
				return nil
			}
			describeAll(batch)
			select {
			case described <- batch:
			case <-gctx.Done():
				return gctx.Err()
			}
			batch = make([]pending, 0, reconcileBatch)
			return nil
		}
		err := walk(func(d files.DiskFile) error {
			prev, known := live[d.Name]
			if known {
				delete(live, d.Name)
				if prev.size == d.Size && prev.diskTime == d.DiskTime {
					return nil
				}
			}
			batch = append(batch, pending{d: d, prev: prev, known: known})
			if len(batch) == reconcileBatch {
				return send()
			}
			return nil
		})
		if err != nil {
			return err
		}
		return send()
	})
	return g.Wait()
}

// liveStates returns the state of every live row of a conversation, by
// name.
func (ix *Index) liveStates(ctx context.Context, conversation string) (map[string]liveState, error) {
	rows, err := ix.r.QueryContext(ctx, `SELECT name, id, size, disk_time FROM files
		WHERE conversation = ? AND deleted_on IS NULL`, conversation)
	if err != nil {
		return nil, wrap("reconcile", err)
	}
	defer rows.Close()
	out := map[string]liveState{}
	for rows.Next() {
		var name string
		var st liveState
		if err := rows.Scan(&name, &st.id, &st.size, &st.diskTime); err != nil {
			return nil, wrap("reconcile", err)
		}
		out[name] = st
	}
	return out, wrap("reconcile", rows.Err())
}

// commitChanged records one batch of new and changed files in one
// transaction and returns its events.
func (ix *Index) commitChanged(ctx context.Context, conversation string, batch []pending) ([]files.Event, error) {
	var events []files.Event
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		events = events[:0]
		now := ix.now()
		for _, p := range batch {
			if p.desc.err != nil {
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
func (ix *Index) recordStored(tx *stmtTx, conversation string, p pending, now time.Time) (files.Event, error) {
	d := p.d
	modified := time.Unix(0, d.DiskTime)
	var rec files.Record
	typ := files.FileCreated
	put := func(tx *stmtTx, rec files.Record, _ time.Time) error { return insertLive(tx, rec) }
	if p.known {
		var err error
		if rec, err = byID(tx, p.prev.id); err != nil {
			return files.Event{}, err
		}
		if rec.Size == d.Size && rec.SHA256 == p.desc.sha {
			_, err := tx.Exec(`UPDATE files SET disk_time = ?, modified_on = ? WHERE id = ?`, d.DiskTime, stamp(modified), rec.ID)
			return files.Event{}, err
		}
		typ, put = files.FileModified, putLive
	} else { // no live row has its name; deleted ones without versions go in putLive
		rec = files.Record{ID: newID(), Conversation: conversation, Name: d.Name,
			Source: files.SourceCreated, Created: modified}
	}
	rec.MIME, rec.SHA256, rec.Size, rec.DiskTime, rec.Modified = p.desc.mime, p.desc.sha, d.Size, d.DiskTime, modified
	rec.Version++
	if err := put(tx, rec, now); err != nil {
		return files.Event{}, err
	}
	return ix.insertEvent(tx, files.Event{Type: typ, Conversation: conversation, ID: rec.ID, Name: rec.Name,
		Size: rec.Size, MIME: rec.MIME, Session: rec.Session, Time: now})
}

// dropVanished marks deleted, a batch per transaction, the live rows
// whose files the walk did not find.
func (ix *Index) dropVanished(ctx context.Context, conversation string, live map[string]liveState, publish func([]files.Event)) error {
	for len(live) > 0 {
		var events []files.Event
		err := ix.inTx(ctx, func(tx *stmtTx) error {
			events = events[:0]
			now := ix.now()
			for name, st := range live {
				if len(events) == reconcileBatch {
					break
				}
				if err := markDeleted(tx, st.id, now); err != nil {
					return err
				}
				ev, err := ix.insertEvent(tx, files.Event{Type: files.FileDeleted, Conversation: conversation, ID: st.id, Name: name, Time: now})
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
