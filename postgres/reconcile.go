package postgres

import (
	"context"
	"time"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/jackc/pgx/v5"
)

// reconcileBatch is how many new, changed or vanished files one
// transaction of a reconciliation commits.
const reconcileBatch = 2000

// Reconcile makes a conversation's rows match what its blobs hold (see
// driver.Index and driver.RunReconcile).
func (ix *Index) Reconcile(ctx context.Context, conversation string, in driver.Reconciliation) (map[string][]int, error) {
	orphans, err := driver.RunReconcile(ctx, conversation, in, reconciler{ix}, reconcileBatch)
	return orphans, wrap("reconcile", err)
}

// reconciler is the index's SQL for driver.RunReconcile.
type reconciler struct{ ix *Index }

func (r reconciler) LiveStates(ctx context.Context, conversation string) (map[string]driver.LiveState, error) {
	rows, err := r.ix.pool.Query(ctx, liveStates, conversation)
	if err != nil {
		return nil, err
	}
	out := map[string]driver.LiveState{}
	var name string
	var st driver.LiveState
	_, err = pgx.ForEachRow(rows, []any{&name, &st.ID, &st.Size, &st.DiskTime}, func() error {
		out[name] = st
		return nil
	})
	return out, err
}

func (r reconciler) KeptVersions(ctx context.Context, conversation string) (map[driver.VersionKey]bool, error) {
	rows, err := r.ix.pool.Query(ctx, keptVersions, conversation)
	if err != nil {
		return nil, err
	}
	out := map[driver.VersionKey]bool{}
	var id string
	var n int32
	_, err = pgx.ForEachRow(rows, []any{&id, &n}, func() error {
		out[driver.VersionKey{FileID: id, Version: int(n)}] = true
		return nil
	})
	return out, err
}

// inConversation runs fn in a transaction holding the conversation's lock.
func (r reconciler) inConversation(ctx context.Context, conversation string, fn func(t *writeTx) error) error {
	return r.ix.inTx(ctx, func(t *writeTx) error {
		if err := t.lock(conversation); err != nil {
			return err
		}
		return fn(t)
	})
}

func (r reconciler) CommitChanged(ctx context.Context, conversation string, batch []driver.PendingFile) ([]files.Event, error) {
	var events []files.Event
	err := r.inConversation(ctx, conversation, func(t *writeTx) error {
		events = events[:0]
		now := r.ix.now()
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
func (t *writeTx) recordStored(conversation string, p driver.PendingFile, now time.Time) (files.Event, error) {
	d := p.File
	modified := time.Unix(0, d.DiskTime)
	var rec files.Record
	typ := files.FileCreated
	put := func(rec files.Record) error {
		return t.exec(insertLive, rec.ID, rec.Conversation, rec.Name, rec.MIME, rec.Size, rec.SHA256, max(rec.Version, 1), string(rec.Source),
			rec.Session, nanos(rec.Created), nanos(rec.Modified), rec.DiskTime, rec.DerivedFrom, rec.Blob)
	}
	if p.Known {
		var err error
		if rec, err = byID(t.ctx, t.reader(), p.Prev.ID); err != nil {
			return files.Event{}, err
		}
		if rec.Size == d.Size && rec.SHA256 == p.SHA {
			return files.Event{}, t.exec(touchDiskTime, d.DiskTime, d.DiskTime, rec.ID)
		}
		typ, put = files.FileModified, func(rec files.Record) error { return changeWriter{t}.PutLive(rec, now) }
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

func (r reconciler) DropVanished(ctx context.Context, conversation string, gone map[string]driver.LiveState) ([]files.Event, error) {
	var events []files.Event
	err := r.inConversation(ctx, conversation, func(t *writeTx) error {
		events = events[:0]
		now := r.ix.now()
		for name, st := range gone {
			if err := (changeWriter{t}).MarkDeleted(st.ID, now); err != nil {
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
	return events, err
}

func (r reconciler) DropVersions(ctx context.Context, conversation string, gone []driver.VersionKey) error {
	return r.inConversation(ctx, conversation, func(t *writeTx) error {
		for _, k := range gone {
			if err := t.exec(dropVersion, k.FileID, k.Version); err != nil {
				return err
			}
		}
		return t.exec(dropBareDeleted, conversation)
	})
}
