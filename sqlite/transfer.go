package sqlite

import (
	"context"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"
)

// Files returns up to limit rows of a conversation, live or deleted, in
// ID order after the ID after.
func (ix *Index) Files(ctx context.Context, conversation, after string, limit int) ([]files.Record, error) {
	return ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE conversation = ? AND id > ? ORDER BY id LIMIT ?`,
		conversation, after, limit)
}

// Import records a file and its versions as they are, with no event.
func (t *writeTx) Import(rec files.Record, versions []files.Version) error {
	return wrap("import", driver.ImportRows(rec, versions, changeWriter{t.ix, t.tx}))
}

// ContinueEvents makes the next event's number greater than after:
// AUTOINCREMENT numbers past the largest of sqlite_sequence and the
// table's own rows.
func (ix *Index) ContinueEvents(ctx context.Context, after int64) error {
	return wrap("continue events", ix.inTx(ctx, func(tx *stmtTx) error {
		if _, err := tx.Exec(`INSERT INTO sqlite_sequence (name, seq) SELECT 'events', 0
			WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events')`); err != nil {
			return err
		}
		_, err := tx.Exec(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'events'`, after)
		return err
	}))
}
