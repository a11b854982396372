package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"convfiles/internal/keyrows"
	"convfiles/internal/sqltext"
)

var _ keyrows.Store = (*Index)(nil)

// CreateKeyRow stores a new API key's row.
func (ix *Index) CreateKeyRow(ctx context.Context, r keyrows.Row) error {
	_, err := ix.w.ExecContext(ctx, sqltext.InsertKey,
		r.ID, r.Name, r.Hash, r.Scopes, r.Tenant, r.Conversations, r.Created, r.MaxBytes)
	return err
}

// KeyRow returns the row of the key with the given ID.
func (ix *Index) KeyRow(ctx context.Context, id string) (keyrows.Row, error) {
	// Every request of a hosted server looks its key up: the statement is
	// prepared once, not parsed per request.
	st, err := ix.readStmt(sqltext.KeyByID)
	if err != nil {
		return keyrows.Row{}, err
	}
	k, err := scanKey(st.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return keyrows.Row{}, fmt.Errorf("%w: %s", keyrows.ErrNotFound, id)
	}
	return k, err
}

// KeyRows returns every key's row, oldest first.
func (ix *Index) KeyRows(ctx context.Context) ([]keyrows.Row, error) {
	rows, err := ix.r.QueryContext(ctx, sqltext.AllKeys)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []keyrows.Row
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// RevokeKeyRow marks the key revoked at the given time, once.
func (ix *Index) RevokeKeyRow(ctx context.Context, id string, at time.Time) error {
	res, err := ix.w.ExecContext(ctx, sqltext.RevokeKey, at.UnixNano(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", keyrows.ErrNotFound, id)
	}
	return nil
}

func scanKey(row scanner) (keyrows.Row, error) {
	var r keyrows.Row
	var revoked sql.NullInt64
	if err := row.Scan(&r.ID, &r.Name, &r.Hash, &r.Scopes, &r.Tenant, &r.Conversations, &r.Created, &revoked, &r.MaxBytes); err != nil {
		return keyrows.Row{}, err
	}
	if revoked.Valid {
		r.Revoked = &revoked.Int64
	}
	return r, nil
}

// readStmt is query prepared on the readers, once.
func (ix *Index) readStmt(query string) (*sql.Stmt, error) {
	if s, ok := ix.readStmts.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := ix.r.Prepare(query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := ix.readStmts.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}
