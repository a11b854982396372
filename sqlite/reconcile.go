package sqlite

import (
	"context"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"
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
func (ix *Index) Reconcile(ctx context.Context, conversation string, in driver.Reconciliation) (map[string][]int, error) {
	orphans, err := driver.RunReconcile(ctx, conversation, in, reconciler{ix}, reconcileBatch)
	return orphans, wrap("reconcile", err)
}

// reconciler is the index's SQL for driver.RunReconcile.
type reconciler struct{ ix *Index }

func (r reconciler) LiveStates(ctx context.Context, conversation string) (map[string]driver.LiveState, error) {
	rows, err := r.ix.r.QueryContext(ctx, sqltext.LiveStates, conversation)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]driver.LiveState{}
	for rows.Next() {
		var name string
		var st driver.LiveState
		if err := rows.Scan(&name, &st.ID, &st.Size, &st.DiskTime); err != nil {
			return nil, err
		}
		out[name] = st
	}
	return out, rows.Err()
}

func (r reconciler) KeptVersions(ctx context.Context, conversation string) (map[driver.VersionKey]bool, error) {
	rows, err := r.ix.r.QueryContext(ctx, sqltext.KeptVersions, conversation)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[driver.VersionKey]bool{}
	for rows.Next() {
		var k driver.VersionKey
		if err := rows.Scan(&k.FileID, &k.Version); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}

func (r reconciler) CommitChanged(ctx context.Context, conversation string, batch []driver.PendingFile) ([]files.Event, error) {
	var events []files.Event
	err := r.ix.inTx(ctx, func(tx *stmtTx) error {
		events = events[:0]
		now := r.ix.now()
		for _, p := range batch {
			if p.Err != nil {
				continue // vanished or unreadable: the next start-up tries again
			}
			ev, err := r.ix.recordStored(tx, conversation, p, now)
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
func (ix *Index) recordStored(tx *stmtTx, conversation string, p driver.PendingFile, now time.Time) (files.Event, error) {
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
			_, err := tx.Exec(sqltext.TouchDiskTime, d.DiskTime, stamp(modified), rec.ID)
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

func (r reconciler) DropVanished(ctx context.Context, conversation string, gone map[string]driver.LiveState) ([]files.Event, error) {
	var events []files.Event
	err := r.ix.inTx(ctx, func(tx *stmtTx) error {
		events = events[:0]
		now := r.ix.now()
		for name, st := range gone {
			if err := markDeleted(tx, st.ID, now); err != nil {
				return err
			}
			ev, err := r.ix.insertEvent(tx, files.Event{Type: files.FileDeleted, Conversation: conversation, ID: st.ID, Name: name, Time: now})
			if err != nil {
				return err
			}
			events = append(events, ev)
		}
		return nil
	})
	return events, err
}

func (r reconciler) DropVersions(ctx context.Context, conversation string, gone []driver.VersionKey) error {
	return r.ix.inTx(ctx, func(tx *stmtTx) error {
		for _, k := range gone {
			if _, err := tx.Exec(sqltext.DropVersion, k.FileID, k.Version); err != nil {
				return err
			}
		}
		_, err := tx.Exec(sqltext.DropBareDeleted, conversation)
		return err
	})
}
