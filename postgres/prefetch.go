package postgres

import (
	"context"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/jackc/pgx/v5"
)

var _ driver.UsageLookup = (*writeTx)(nil)

// UsageAndLookup reads the conversation's usage and the live file of
// name in one round trip, with whatever was put off before them (the
// transaction's BEGIN, for a change's first reads) and the conversation's
// lock first when it is not held yet: both reads see the conversation
// under the lock, as if sent one by one.
func (t *writeTx) UsageAndLookup(conversation, name string) (files.Usage, files.Record, bool, error) {
	var b pgx.Batch
	locking := !t.locked[conversation]
	if locking {
		b.Queue(lockConversation, conversation)
	}
	b.Queue(usageOf, conversation)
	b.Queue(lookupFile, conversation, name)
	br, err := t.sendWith(&b)
	if err != nil {
		return files.Usage{}, files.Record{}, false, wrap("usage", err)
	}
	u, rec, found, err := t.readUsageAndLookup(br, conversation, name, locking)
	if cerr := br.Close(); err == nil && cerr != nil {
		err = wrap("usage", cerr)
	}
	return u, rec, found, err
}

// readUsageAndLookup reads the answers UsageAndLookup asked for, in
// their order.
func (t *writeTx) readUsageAndLookup(br pgx.BatchResults, conversation, name string, locking bool) (files.Usage, files.Record, bool, error) {
	if locking {
		if _, err := br.Exec(); err != nil {
			return files.Usage{}, files.Record{}, false, wrap("usage", err)
		}
		t.markLocked(conversation)
	}
	q := batchQuerier{br}
	u, err := usage(t.ctx, q, conversation)
	if err != nil {
		return u, files.Record{}, false, err
	}
	rec, err := lookup(t.ctx, q, conversation, name)
	if files.KindOf(err) == files.KindNotFound {
		return u, rec, false, nil
	}
	return u, rec, err == nil, err
}

// batchQuerier reads the next answers of a batch already sent, in the
// order they were queued: the statement and arguments given it are the
// ones queued.
type batchQuerier struct{ br pgx.BatchResults }

func (q batchQuerier) Query(context.Context, string, ...any) (pgx.Rows, error) { return q.br.Query() }

func (q batchQuerier) QueryRow(context.Context, string, ...any) pgx.Row { return q.br.QueryRow() }
