package sqlite

import (
	"context"
	"runtime"
	"sync"
)

// reconcileVersions makes the version rows of a conversation match the
// version bytes stored (onDisk, by file ID): rows whose bytes are gone
// are dropped, with the rows of deleted files that then have nothing
// left to restore, and bytes without a row are returned as orphans.
func (ix *Index) reconcileVersions(ctx context.Context, conversation string, kept map[[2]any]bool, onDisk map[string][]int) (map[string][]int, error) {
	orphans := map[string][]int{}
	stored := map[[2]any]bool{}
	for id, ns := range onDisk {
		for _, n := range ns {
			stored[[2]any{id, n}] = true
			if !kept[[2]any{id, n}] {
				orphans[id] = append(orphans[id], n)
			}
		}
	}
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		for k := range kept {
			if !stored[k] {
				if _, err := tx.Exec(`DELETE FROM versions WHERE file_id = ? AND version = ?`, k[0], k[1]); err != nil {
					return err
				}
			}
		}
		_, err := tx.Exec(`DELETE FROM files WHERE conversation = ? AND deleted_on IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`, conversation)
		return err
	})
	return orphans, err
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

// describeAll describes the files of batch on every core, before the
// transaction that takes the write lock.
func describeAll(batch []pending) {
	next := make(chan int, len(batch))
	for i := range batch {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := &batch[i]
				p.desc.mime, p.desc.sha, p.desc.err = p.d.Describe()
			}
		}()
	}
	wg.Wait()
}
