package postgres

import (
	"context"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"
)

// Files returns up to limit rows of a conversation, live or deleted, in
// ID order after the ID after.
func (ix *Index) Files(ctx context.Context, conversation, after string, limit int) ([]files.Record, error) {
	return ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE conversation = $1 AND id COLLATE "C" > $2
		ORDER BY id COLLATE "C" LIMIT $3`, conversation, after, limit)
}

// Import records a file and its versions as they are, with no event,
// under the conversation's lock.
func (t *writeTx) Import(rec files.Record, versions []files.Version) error {
	if err := t.lock(rec.Conversation); err != nil {
		return wrap("import", err)
	}
	if err := driver.ImportRows(rec, versions, changeWriter{t}); err != nil {
		return wrap("import", err)
	}
	return wrap("import", t.flush())
}

// ContinueEvents makes the next event's number greater than after.
func (ix *Index) ContinueEvents(ctx context.Context, after int64) error {
	_, err := ix.pool.Exec(ctx, `UPDATE event_seq SET seq = greatest(seq, $1)`, after)
	return wrap("continue events", err)
}
