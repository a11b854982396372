package postgres

import (
	"errors"

	"convfiles/files"

	"github.com/jackc/pgx/v5"
)

// A change's statements whose answers it never reads (a kept version, the
// live row, a row dropped) are put off and sent with the next statement
// it does read (the versions pruned, the event's number), in one round
// trip: the server runs them in order, as if sent one by one, and the
// first error among them is the change's error, as it would have been.
// ApplyChange always ends with a statement it reads, so nothing is put
// off between changes; Apply and the commit send whatever is left anyway.

// later puts a statement off until the next one the change reads.
func (t *writeTx) later(sql string, args ...any) {
	t.usageAfter = nil
	t.pending.Queue(sql, args...)
}

// flush sends the statements put off, if any.
func (t *writeTx) flush() error {
	if t.pending.Len() == 0 {
		return nil
	}
	b := t.pending
	t.pending = pgx.Batch{}
	return t.tx.SendBatch(t.ctx, &b).Close()
}

// sendWith sends the statements put off and then b's, in one round trip,
// and returns the answers of b's, those of the others read: the first of
// their errors is returned instead.
func (t *writeTx) sendWith(b *pgx.Batch) (pgx.BatchResults, error) {
	t.usageAfter = nil
	n := t.pending.Len()
	if n == 0 {
		return t.tx.SendBatch(t.ctx, b), nil
	}
	all := t.pending
	t.pending = pgx.Batch{}
	all.QueuedQueries = append(all.QueuedQueries, b.QueuedQueries...)
	br := t.tx.SendBatch(t.ctx, &all)
	for range n {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return nil, err
		}
	}
	return br, nil
}

// usageAfterEvent is a conversation's usage read in the round trip of a
// change's last statement, its event: the engine asks for it next, to
// check the quota. Any statement after it forgets it.
type usageAfterEvent struct {
	conversation string
	usage        files.Usage
}

// readUsageAfter reads the usage queued after an event, where br stands.
func readUsageAfter(br pgx.BatchResults, conversation string) (*usageAfterEvent, error) {
	var n int64
	u := usageAfterEvent{conversation: conversation}
	err := br.QueryRow().Scan(&u.usage.Bytes, &n)
	if errors.Is(err, pgx.ErrNoRows) {
		return &u, nil
	}
	u.usage.Files = int(n)
	return &u, err
}
