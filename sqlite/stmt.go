package sqlite

import (
	"database/sql"

	"github.com/google/uuid"
)

// stmtTx is a write transaction whose statements are prepared once per
// Index and reused: SQLite's parser cost more than the rows it wrote
// (reconciling 100,000 new files spent 41% of its time preparing the
// same four statements again).
type stmtTx struct {
	*sql.Tx
	ix    *Index
	local map[string]*sql.Stmt // prepared for this transaction only
}

// stmt is the transaction's handle on query's prepared statement. The
// single write connection is the transaction's, so a query no earlier
// transaction ran is prepared for this one only, and for the Index once
// the transaction ends (prepare).
func (tx *stmtTx) stmt(query string) (*sql.Stmt, error) {
	if s, ok := tx.ix.stmts.Load(query); ok {
		return tx.Tx.Stmt(s.(*sql.Stmt)), nil
	}
	if s, ok := tx.local[query]; ok {
		return s, nil
	}
	s, err := tx.Tx.Prepare(query)
	if err != nil {
		return nil, err
	}
	if tx.local == nil {
		tx.local = map[string]*sql.Stmt{}
	}
	tx.local[query] = s
	return s, nil
}

// prepare prepares the queries the transaction ran unprepared, once the
// write connection is free again.
func (tx *stmtTx) prepare() {
	for q := range tx.local {
		if _, ok := tx.ix.stmts.Load(q); ok {
			continue
		}
		if s, err := tx.ix.w.Prepare(q); err == nil {
			tx.ix.stmts.Store(q, s)
		}
	}
}

// Exec runs query with args through its prepared statement.
func (tx *stmtTx) Exec(query string, args ...any) (sql.Result, error) {
	s, err := tx.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.Exec(args...)
}

// Query runs query with args through its prepared statement.
func (tx *stmtTx) Query(query string, args ...any) (*sql.Rows, error) {
	s, err := tx.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.Query(args...)
}

// QueryRow runs query with args through its prepared statement.
func (tx *stmtTx) QueryRow(query string, args ...any) *sql.Row {
	s, err := tx.stmt(query)
	if err != nil {
		return tx.Tx.QueryRow(query, args...) // reports the same error
	}
	return s.QueryRow(args...)
}

// newID is a new file ID: a UUID of version 7, whose first bits are the
// time, so that new rows land at the end of the ID index instead of at
// random places in it (fewer pages touched per insert). A failure of the
// random source, which cannot happen on Linux, falls back to version 4.
func newID() string {
	if id, err := uuid.NewV7(); err == nil {
		return id.String()
	}
	return uuid.NewString()
}
