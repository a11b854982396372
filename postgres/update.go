package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Update runs fn in one transaction. Each conversation fn touches is
// locked (an advisory lock, held until the transaction ends) before its
// rows are read, so what fn reads of it is still true when it commits,
// on this replica or any other: compare-and-commit edits and quota checks
// cannot be raced. An error from fn rolls back and is returned as is.
func (ix *Index) Update(ctx context.Context, fn func(driver.Tx) error) error {
	var fnErr error
	err := ix.inTx(ctx, func(tx *writeTx) error {
		fnErr = fn(tx)
		return fnErr
	})
	if fnErr != nil {
		return fnErr
	}
	return wrap("index", err)
}

// UpdateBatch runs each of fns, in order, in a transaction of its own:
// PostgreSQL makes concurrent commits durable together by itself, so a
// Store on this index does not batch (see ConcurrentCommits) and a batch
// needs no shared transaction. errs[i] is fns[i]'s error, its own or its
// transaction's.
func (ix *Index) UpdateBatch(ctx context.Context, fns []func(driver.Tx) error) ([]error, error) {
	errs := make([]error, len(fns))
	for i, fn := range fns {
		errs[i] = ix.Update(ctx, fn)
	}
	return errs, nil
}

// ConcurrentCommits reports that changes should commit in transactions
// of their own, at once, rather than in group commits: each locks only
// its conversation, so changes to different conversations never wait for
// each other, on this replica or another.
func (ix *Index) ConcurrentCommits() bool { return true }

// commitTimeout bounds a commit, which runs apart from its caller's
// cancellation (see inTx).
const commitTimeout = 30 * time.Second

// inTx runs fn in a transaction; an error or a panic rolls it back. The
// transaction's BEGIN is put off like the statements a change never reads
// the answers of (see later): it goes with the change's first statement,
// in one round trip. The commit itself is not cancelled with ctx: a
// client that goes away after its change was sent to be committed cannot
// turn a commit that happened into one its caller believes did not (pgx
// closes the connection of a cancelled query, and the server may have
// committed all the same).
func (ix *Index) inTx(ctx context.Context, fn func(*writeTx) error) (err error) {
	conn, err := ix.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A connection left inside a transaction, or broken, is closed by
	// Release rather than handed to the next caller.
	defer conn.Release()
	wt := &writeTx{ix: ix, ctx: ctx, tx: conn}
	wt.later("BEGIN")
	done := false
	defer func() {
		if !done && conn.Conn().PgConn().TxStatus() != 'I' { // BEGIN was sent
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
			conn.Exec(rctx, "ROLLBACK")
			cancel()
		}
	}()
	if err := fn(wt); err != nil {
		return err
	}
	if err := wt.flush(); err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	done = true
	tag, err := conn.Exec(cctx, "COMMIT")
	if err != nil {
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) { // no answer from the server: it may have committed
			return fmt.Errorf("%w: %w", files.ErrCommitUnknown, err)
		}
		return err
	}
	if tag.String() == "ROLLBACK" { // the transaction had failed: nothing committed
		return pgx.ErrTxCommitRollback
	}
	return nil
}

// txConn is the connection a writeTx sends its statements on, inside the
// transaction it began.
type txConn interface {
	querier
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// writeTx is the driver.Tx of one Update.
type writeTx struct {
	ix     *Index
	ctx    context.Context
	tx     txConn
	locked map[string]bool
	events int // events added so far (see insertEvent)
	// pending holds the statements put off (see later), readers what
	// reads each one's answer (nil: nothing but its error); usageAfter
	// the usage read with the last event (see insertEvent).
	pending    pgx.Batch
	readers    []func(pgx.BatchResults) error
	usageAfter *usageAfterEvent
	// pruned collects the versions a change's pruning dropped, read with
	// its later statements (see prune).
	pruned []files.Version
}

var _ driver.Tx = (*writeTx)(nil)

// lock takes the conversation's advisory lock once per transaction.
func (t *writeTx) lock(conversation string) error {
	if t.locked[conversation] {
		return nil
	}
	if err := t.exec(lockConversation, conversation); err != nil {
		return err
	}
	t.markLocked(conversation)
	return nil
}

// markLocked records that the transaction holds the conversation's lock.
func (t *writeTx) markLocked(conversation string) {
	if t.locked == nil {
		t.locked = map[string]bool{}
	}
	t.locked[conversation] = true
}

func (t *writeTx) Lookup(conversation, name string) (files.Record, error) {
	return lookup(t.ctx, t.lockFirst(conversation), conversation, name)
}

// ByID finds the file's conversation, locks it, and reads the row again:
// what the first read saw may have changed before the lock was taken.
func (t *writeTx) ByID(id string) (files.Record, error) {
	rec, err := byID(t.ctx, t.reader(), id)
	if err != nil || t.locked[rec.Conversation] {
		return rec, err
	}
	if err := t.lock(rec.Conversation); err != nil {
		return files.Record{}, wrap("find", err)
	}
	return byID(t.ctx, t.reader(), id)
}

// IsFolder looks for one live name below name, under the conversation's
// lock like every read of a change.
func (t *writeTx) IsFolder(conversation, name string) (bool, error) {
	var folder bool
	err := t.lockFirst(conversation).QueryRow(t.ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE conversation = $1 AND deleted_on IS NULL
		AND starts_with(name, $2))`, conversation, name+"/").Scan(&folder)
	return folder, wrap("find", err)
}

func (t *writeTx) Usage(conversation string) (files.Usage, error) {
	if u := t.usageAfter; u != nil && u.conversation == conversation && t.locked[conversation] {
		t.usageAfter = nil
		return u.usage, nil
	}
	return usage(t.ctx, t.lockFirst(conversation), conversation)
}

// AllowanceUsage takes the allowance's advisory lock, then adds up the
// usage rows of its conversations. Replicas commit changes to different
// conversations at once, so without the lock two of them could each see
// room for one change and both commit. starts_with compares bytes,
// whatever the database's collation.
func (t *writeTx) AllowanceUsage(a files.Allowance) (int64, error) {
	if err := t.exec(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, a.Lock()); err != nil {
		return 0, wrap("usage", err)
	}
	var held int64
	var err error
	if len(a.Conversations) > 0 {
		err = t.reader().QueryRow(t.ctx, `SELECT COALESCE(SUM(bytes), 0)::bigint FROM usage WHERE conversation = ANY($1)`, a.Conversations).Scan(&held)
	} else {
		err = t.reader().QueryRow(t.ctx, `SELECT COALESCE(SUM(bytes), 0)::bigint FROM usage WHERE starts_with(conversation, $1)`, a.Tenant).Scan(&held)
	}
	return held, wrap("usage", err)
}

func (t *writeTx) Apply(c driver.Change) (driver.Applied, error) {
	if err := t.lock(c.Record.Conversation); err != nil {
		return driver.Applied{}, wrap("index", err)
	}
	t.pruned = nil
	res, err := t.apply(c)
	if err == nil {
		err = wrap("index", t.flush())
	}
	res.Pruned, t.pruned = t.pruned, nil // read by now: see prune
	return res, err
}

// querier is what reads need: the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Usage returns what a conversation holds, as of the last commit.
func (ix *Index) Usage(ctx context.Context, conversation string) (files.Usage, error) {
	return usage(ctx, ix.pool, conversation)
}

func usage(ctx context.Context, q querier, conversation string) (files.Usage, error) {
	var u files.Usage
	var n int64
	err := q.QueryRow(ctx, usageOf, conversation).Scan(&u.Bytes, &n)
	if errors.Is(err, pgx.ErrNoRows) {
		return files.Usage{}, nil
	}
	u.Files = int(n)
	return u, wrap("usage", err)
}
