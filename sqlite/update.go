package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"
)

// Update runs fn in one write transaction (see inTx): what fn reads
// through its Tx is still true when it commits. An error from fn is
// returned as is; a failure of the index itself is KindInternal.
func (ix *Index) Update(ctx context.Context, fn func(driver.Tx) error) error {
	var fnErr error
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		fnErr = fn(&writeTx{ix: ix, tx: tx})
		return fnErr
	})
	if fnErr != nil {
		return fnErr
	}
	return wrap("index", err)
}

// UpdateBatch runs each of fns in a savepoint of one write transaction:
// a fn that fails is rolled back to its savepoint alone, and one commit
// makes the others durable together.
func (ix *Index) UpdateBatch(ctx context.Context, fns []func(driver.Tx) error) ([]error, error) {
	errs := make([]error, len(fns))
	err := ix.inTx(ctx, func(tx *stmtTx) error {
		clear(errs)
		wtx := &writeTx{ix: ix, tx: tx}
		for i, fn := range fns {
			if _, err := tx.Exec(`SAVEPOINT batch_member`); err != nil {
				return err
			}
			if errs[i] = fn(wtx); errs[i] != nil {
				if _, err := tx.Exec(`ROLLBACK TO batch_member`); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(`RELEASE batch_member`); err != nil {
				return err
			}
		}
		return nil
	})
	return errs, wrap("index", err)
}

// writeTx is the driver.Tx of one Update.
type writeTx struct {
	ix *Index
	tx *stmtTx
}

var _ driver.Tx = (*writeTx)(nil)

func (t *writeTx) Lookup(conversation, name string) (files.Record, error) {
	return lookup(t.tx, conversation, name)
}

func (t *writeTx) ByID(id string) (files.Record, error) { return byID(t.tx, id) }

func (t *writeTx) Usage(conversation string) (files.Usage, error) { return usage(t.tx, conversation) }

// IsFolder looks for one live name in the range of names below name,
// which the index on (conversation, name) walks.
func (t *writeTx) IsFolder(conversation, name string) (bool, error) {
	prefix := name + "/"
	var one int
	err := t.tx.QueryRow(`SELECT 1 FROM files WHERE conversation = ? AND name >= ? AND name < ? AND deleted_on IS NULL LIMIT 1`,
		conversation, prefix, prefixEnd(prefix)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, wrap("find", err)
}

// AllowanceUsage adds up the usage rows of the allowance's conversations:
// a range of the primary key for a tenant. SQLite has one writer at a
// time, so the write transaction is the lock.
func (t *writeTx) AllowanceUsage(a files.Allowance) (int64, error) {
	var held int64
	var err error
	switch lo, hi := a.TenantRange(); {
	case len(a.Conversations) > 0:
		q := `SELECT COALESCE(SUM(bytes), 0) FROM usage WHERE conversation IN (?` + strings.Repeat(", ?", len(a.Conversations)-1) + `)`
		args := make([]any, len(a.Conversations))
		for i, c := range a.Conversations {
			args[i] = c
		}
		err = t.tx.QueryRow(q, args...).Scan(&held)
	case hi == "":
		err = t.tx.QueryRow(`SELECT COALESCE(SUM(bytes), 0) FROM usage WHERE conversation >= ?`, lo).Scan(&held)
	default:
		err = t.tx.QueryRow(`SELECT COALESCE(SUM(bytes), 0) FROM usage WHERE conversation >= ? AND conversation < ?`, lo, hi).Scan(&held)
	}
	return held, wrap("usage", err)
}

func (t *writeTx) Apply(c driver.Change) (driver.Applied, error) { return t.ix.apply(t.tx, c) }

// Usage returns what a conversation holds, as of the last commit.
func (ix *Index) Usage(ctx context.Context, conversation string) (files.Usage, error) {
	return usage(ctxRower{ctx, ix.r}, conversation)
}

type queryRower interface {
	QueryRow(query string, args ...any) *sql.Row
}

// ctxRower runs the queries of a read under its caller's context.
type ctxRower struct {
	ctx context.Context
	db  *sql.DB
}

func (c ctxRower) QueryRow(query string, args ...any) *sql.Row {
	return c.db.QueryRowContext(c.ctx, query, args...)
}

func usage(q queryRower, conversation string) (files.Usage, error) {
	var u files.Usage
	err := q.QueryRow(sqltext.UsageOf, conversation).Scan(&u.Bytes, &u.Files)
	if errors.Is(err, sql.ErrNoRows) {
		return files.Usage{}, nil
	}
	return u, wrap("usage", err)
}

func lookup(q queryRower, conversation, name string) (files.Record, error) {
	row := q.QueryRow(sqltext.LookupFile, conversation, name)
	rec, err := scanRecord(row)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, files.E("find", files.KindNotFound, name, "no such file", nil)
	}
	return rec, wrap("find", err)
}

func byID(q queryRower, id string) (files.Record, error) {
	rec, err := scanRecord(q.QueryRow(sqltext.FileByID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return rec, files.E("find", files.KindNotFound, id, "no file has this ID", nil)
	}
	return rec, wrap("find", err)
}
