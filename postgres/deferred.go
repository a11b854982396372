package postgres

import (
	"errors"

	"convfiles/files"

	"github.com/jackc/pgx/v5"
)

// A change's statements whose answers it never reads (a kept version, the
// live row, a row dropped) are put off and sent with the next statement
// it does read (the event's number), in one round trip: the server runs
// them in order, as if sent one by one, and the first error among them is
// the change's error, as it would have been. A statement whose answer is
// read only once the change is recorded (the versions pruned, which Apply
// returns) is put off the same way, with what reads its answer when it
// comes (see laterRead). ApplyChange always ends with a statement it
// reads, so nothing is put off between changes; Apply and the commit send
// whatever is left anyway.

// later puts a statement off until the next one the change reads.
func (t *writeTx) later(sql string, args ...any) {
	t.laterRead(nil, sql, args...)
}

// laterRead puts a statement off like later; read, unless nil, reads its
// answer when the round trip that carries it comes back.
func (t *writeTx) laterRead(read func(pgx.BatchResults) error, sql string, args ...any) {
	t.usageAfter = nil
	t.pending.Queue(sql, args...)
	t.readers = append(t.readers, read)
}

// flush sends the statements put off, if any.
func (t *writeTx) flush() error {
	if t.pending.Len() == 0 {
		return nil
	}
	br, err := t.sendWith(&pgx.Batch{})
	if err != nil {
		return err
	}
	return br.Close()
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
	all, readers := t.pending, t.readers
	t.pending, t.readers = pgx.Batch{}, nil
	all.QueuedQueries = append(all.QueuedQueries, b.QueuedQueries...)
	br := t.tx.SendBatch(t.ctx, &all)
	for _, read := range readers {
		var err error
		if read != nil {
			err = read(br)
		} else {
			_, err = br.Exec()
		}
		if err != nil {
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
