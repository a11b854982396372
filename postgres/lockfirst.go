package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// lockFirst is the transaction as a querier whose next one-row query
// takes the conversation's advisory lock first, in the same round trip:
// the two statements go in one pipeline and the server runs them in
// order, so the query reads under the lock as if they had been sent one
// by one. Once the lock is held it is the transaction itself.
func (t *writeTx) lockFirst(conversation string) querier {
	if t.locked[conversation] {
		return t.reader()
	}
	return lockingQuerier{t, conversation}
}

// reader is the transaction as a querier that sends the statements put
// off (see later) before its query, so it reads what they did.
func (t *writeTx) reader() querier {
	if t.pending.Len() == 0 {
		return t.tx
	}
	return flushingQuerier{t}
}

type flushingQuerier struct{ t *writeTx }

func (q flushingQuerier) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := q.t.flush(); err != nil {
		return nil, err
	}
	return q.t.tx.Query(ctx, sql, args...)
}

// QueryRow sends the statements put off and the query in one round trip.
func (q flushingQuerier) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	var b pgx.Batch
	b.Queue(sql, args...)
	br, err := q.t.sendWith(&b)
	if err != nil {
		return errRow{err}
	}
	return batchRow{br}
}

// batchRow reads the one row of the last query of a batch and ends it.
type batchRow struct{ br pgx.BatchResults }

func (r batchRow) Scan(dest ...any) error {
	err := r.br.QueryRow().Scan(dest...)
	if cerr := r.br.Close(); err == nil {
		err = cerr
	}
	return err
}

// errRow is a row whose query could not be sent.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type lockingQuerier struct {
	t            *writeTx
	conversation string
}

// Query takes the lock on its own round trip first (no read that
// returns many rows comes first in a change).
func (q lockingQuerier) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := q.t.lock(q.conversation); err != nil {
		return nil, err
	}
	return q.t.tx.Query(ctx, sql, args...)
}

func (q lockingQuerier) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	var b pgx.Batch
	b.Queue(lockConversation, q.conversation)
	b.Queue(sql, args...)
	br, err := q.t.sendWith(&b)
	if err != nil {
		return errRow{err}
	}
	return lockedRow{q, br}
}

// lockedRow reads the lock's answer, then the row's, and ends the batch.
type lockedRow struct {
	q  lockingQuerier
	br pgx.BatchResults
}

func (r lockedRow) Scan(dest ...any) error {
	if _, err := r.br.Exec(); err != nil {
		r.br.Close()
		return err
	}
	r.q.t.markLocked(r.q.conversation)
	return batchRow{r.br}.Scan(dest...)
}

// lockConversation takes a conversation's advisory lock until the
// transaction ends.
const lockConversation = `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`
