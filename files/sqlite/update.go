package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"convfiles/files"
)

// Update runs fn in one write transaction. The transaction begins
// IMMEDIATE: it holds SQLite's write lock from the start, so every other
// writer of this index file, in this process or another, waits until fn
// has returned and the transaction has committed or rolled back. What fn
// reads through its Tx is therefore still true when it commits. An error
// from fn, or a panic, rolls everything back.
func (ix *Index) Update(ctx context.Context, fn func(files.Tx) error) (err error) {
	tx, err := ix.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("index", err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
	}()
	if err = fn(&writeTx{ix: ix, tx: tx}); err != nil {
		return err
	}
	return wrap("index", tx.Commit())
}

// writeTx is the files.Tx of one Update.
type writeTx struct {
	ix *Index
	tx *sql.Tx
}

var _ files.Tx = (*writeTx)(nil)

func (t *writeTx) Lookup(conversation, name string) (files.Record, error) {
	return lookup(t.tx, conversation, name)
}

func (t *writeTx) ByID(id string) (files.Record, error) { return byID(t.tx, id) }

func (t *writeTx) Usage(conversation string) (files.Usage, error) { return usage(t.tx, conversation) }

func (t *writeTx) Apply(c files.Change) (files.Applied, error) { return t.ix.apply(t.tx, c) }

// Usage returns what a conversation holds, as of the last commit.
func (ix *Index) Usage(conversation string) (files.Usage, error) { return usage(ix.r, conversation) }

type queryRower interface {
	QueryRow(query string, args ...any) *sql.Row
}

func usage(q queryRower, conversation string) (files.Usage, error) {
	var u files.Usage
	err := q.QueryRow(`SELECT bytes, files FROM usage WHERE conversation = ?`, conversation).Scan(&u.Bytes, &u.Files)
	if errors.Is(err, sql.ErrNoRows) {
		return files.Usage{}, nil
	}
	return u, wrap("usage", err)
}

func lookup(q queryRower, conversation, name string) (files.Record, error) {
	row := q.QueryRow(`SELECT `+fileColumns+` FROM files
		WHERE conversation = ? AND name = ? AND deleted_on IS NULL`, conversation, name)
	rec, err := scanRecord(row)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, files.E("find", files.KindNotFound, name, "no such file", nil)
	}
	return rec, wrap("find", err)
}

func byID(q queryRower, id string) (files.Record, error) {
	rec, err := scanRecord(q.QueryRow(`SELECT `+fileColumns+` FROM files WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return rec, files.E("find", files.KindNotFound, id, "no file has this ID", nil)
	}
	return rec, wrap("find", err)
}
