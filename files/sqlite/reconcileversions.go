package sqlite

import (
	"context"

	"convfiles/files"
)

// reconcileVersions makes the version rows of a conversation match the
// version bytes stored (onDisk, by file ID): rows whose bytes are gone
// are dropped, with the rows of deleted files that then have nothing
// left to restore, and bytes without a row are returned as orphans.
func (ix *Index) reconcileVersions(ctx context.Context, conversation string, kept map[files.VersionKey]bool, onDisk map[string][]int) (map[string][]int, error) {
	orphans, gone := files.OrphanVersions(kept, onDisk)
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		for _, k := range gone {
			if _, err := tx.Exec(`DELETE FROM versions WHERE file_id = ? AND version = ?`, k.FileID, k.Version); err != nil {
				return err
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
func (ix *Index) keptVersions(ctx context.Context, conversation string) (map[files.VersionKey]bool, error) {
	rows, err := ix.r.QueryContext(ctx, `SELECT file_id, version FROM versions WHERE conversation = ?`, conversation)
	if err != nil {
		return nil, wrap("reconcile", err)
	}
	defer rows.Close()
	out := map[files.VersionKey]bool{}
	for rows.Next() {
		var k files.VersionKey
		if err := rows.Scan(&k.FileID, &k.Version); err != nil {
			return nil, wrap("reconcile", err)
		}
		out[k] = true
	}
	return out, wrap("reconcile", rows.Err())
}
