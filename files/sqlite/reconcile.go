package sqlite

import (
	"context"
	"runtime"
	"sync"
	"time"

	"convfiles/files"
)

// Reconcile makes a conversation's rows match what is on disk, in one
// transaction: rows for new files, new descriptions for changed ones
// (their size or modification time differ), deletions for vanished ones,
// no rows for versions whose bytes are gone, and a list of version bytes
// without rows for the caller to remove.
func (ix *Index) Reconcile(ctx context.Context, conversation string, disk []files.DiskFile, versionsOnDisk map[string][]int) (files.ReconcileResult, error) {
	res := files.ReconcileResult{OrphanVersions: map[string][]int{}}
	live, err := ix.records(ctx, `SELECT `+fileColumns+` FROM files WHERE conversation = ? AND deleted_on IS NULL`, conversation)
	if err != nil {
		return res, err
	}
	byName := make(map[string]files.Record, len(live))
	for _, rec := range live {
		byName[rec.Name] = rec
	}
	kept, err := ix.keptVersions(ctx, conversation)
	if err != nil {
		return res, err
	}
	descs := describeChanged(disk, byName)
	err = ix.inTx(ctx, func(tx *stmtTx) error {
		now := ix.now()
		emit := func(ev files.Event) error {
			ev, err := ix.insertEvent(tx, ev)
			res.Events = append(res.Events, ev)
			return err
		}
		for i, d := range disk {
			rec, known := byName[d.Name]
			delete(byName, d.Name)
			if known && rec.Size == d.Size && rec.DiskTime == d.DiskTime {
				continue
			}
			mime, sha, err := descs[i].mime, descs[i].sha, descs[i].err
			if err != nil {
				continue // vanished or unreadable: the next start-up tries again
			}
			modified := time.Unix(0, d.DiskTime)
			if known && rec.Size == d.Size && rec.SHA256 == sha {
				// Touched, not changed: the same bytes keep their version.
				if _, err := tx.Exec(`UPDATE files SET disk_time = ?, modified_on = ? WHERE id = ?`, d.DiskTime, stamp(modified), rec.ID); err != nil {
					return err
				}
				continue
			}
			typ := files.FileModified
			if !known {
				typ = files.FileCreated
				rec = files.Record{ID: newID(), Conversation: conversation, Name: d.Name,
					Source: files.SourceCreated, Created: modified}
			}
			rec.MIME, rec.SHA256, rec.Size, rec.DiskTime, rec.Modified = mime, sha, d.Size, d.DiskTime, modified
			rec.Version++
			put := putLive
			if !known { // no live row has its name; deleted ones without versions go below
				put = func(tx *stmtTx, rec files.Record, _ time.Time) error { return insertLive(tx, rec) }
			}
			if err := put(tx, rec, now); err != nil {
				return err
			}
			if err := emit(files.Event{Type: typ, Conversation: conversation, ID: rec.ID, Name: rec.Name,
				Size: rec.Size, MIME: rec.MIME, Session: rec.Session, Time: now}); err != nil {
				return err
			}
		}
		for _, rec := range byName { // rows whose file is gone
			if err := markDeleted(tx, rec.ID, now); err != nil {
				return err
			}
			if err := emit(files.Event{Type: files.FileDeleted, Conversation: conversation, ID: rec.ID, Name: rec.Name, Time: now}); err != nil {
				return err
			}
		}
		onDisk := map[[2]any]bool{}
		for id, ns := range versionsOnDisk {
			for _, n := range ns {
				onDisk[[2]any{id, n}] = true
				if !kept[[2]any{id, n}] {
					res.OrphanVersions[id] = append(res.OrphanVersions[id], n)
				}
			}
		}
		for k := range kept {
			if !onDisk[k] {
				if _, err := tx.Exec(`DELETE FROM versions WHERE file_id = ? AND version = ?`, k[0], k[1]); err != nil {
					return err
				}
			}
		}
		_, err := tx.Exec(`DELETE FROM files WHERE conversation = ? AND deleted_on IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`, conversation)
		return err
	})
	return res, wrap("reconcile", err)
}

// keptVersions returns the (file ID, version) pairs the index holds for a
// conversation.
func (ix *Index) keptVersions(ctx context.Context, conversation string) (map[[2]any]bool, error) {
	rows, err := ix.r.QueryContext(ctx, `SELECT file_id, version FROM versions WHERE conversation = ?`, conversation)
	if err != nil {
		return nil, wrap("reconcile", err)
	}
	defer rows.Close()
	out := map[[2]any]bool{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, wrap("reconcile", err)
		}
		out[[2]any{id, n}] = true
	}
	return out, wrap("reconcile", rows.Err())
}

// description is what Describe said of one file.
type description struct {
	mime, sha string
	err       error
}

// describeChanged describes, on every core and before the transaction
// that takes the write lock, the files of disk that are new or changed
// since their row (byName) was written; the others' entries stay empty.
func describeChanged(disk []files.DiskFile, byName map[string]files.Record) []description {
	out := make([]description, len(disk))
	next := make(chan int, 256)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d := &out[i]
				d.mime, d.sha, d.err = disk[i].Describe()
			}
		}()
	}
	for i, d := range disk {
		if rec, known := byName[d.Name]; !known || rec.Size != d.Size || rec.DiskTime != d.DiskTime {
			next <- i
		}
	}
	close(next)
	wg.Wait()
	return out
}
