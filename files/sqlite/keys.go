package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"convfiles/auth"
	"convfiles/files"
)

var _ auth.KeyStore = (*Index)(nil)

// CreateKey stores a new API key's record.
func (ix *Index) CreateKey(ctx context.Context, k auth.Key) error {
	r := k.Row()
	_, err := ix.w.ExecContext(ctx, `INSERT INTO api_keys (id, name, hash, scopes, tenant, conversations, created_on, max_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.Name, r.Hash, r.Scopes, r.Tenant, r.Conversations, r.Created, r.MaxBytes)
	return err
}

const keyColumns = `id, name, hash, scopes, tenant, conversations, created_on, revoked_on, max_bytes`

// Key returns the record of the key with the given ID.
func (ix *Index) Key(ctx context.Context, id string) (auth.Key, error) {
	// Every request of a hosted server looks its key up: the statement is
	// prepared once, not parsed per request.
	st, err := ix.readStmt(`SELECT ` + keyColumns + ` FROM api_keys WHERE id = ?`)
	if err != nil {
		return auth.Key{}, err
	}
	k, err := scanKey(st.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return auth.Key{}, files.E("key", files.KindNotFound, id, "no API key has this ID; convfiles keys list shows them", nil)
	}
	return k, err
}

// Keys returns every key's record, oldest first.
func (ix *Index) Keys(ctx context.Context) ([]auth.Key, error) {
	rows, err := ix.r.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys ORDER BY created_on, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []auth.Key
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// RevokeKey marks the key revoked at the given time, once.
func (ix *Index) RevokeKey(ctx context.Context, id string, at time.Time) error {
	res, err := ix.w.ExecContext(ctx, `UPDATE api_keys SET revoked_on = COALESCE(revoked_on, ?) WHERE id = ?`, at.UnixNano(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return files.E("revoke key", files.KindNotFound, id, "no API key has this ID; convfiles keys list shows them", nil)
	}
	return nil
}

func scanKey(row scanner) (auth.Key, error) {
	var r auth.KeyRow
	var revoked sql.NullInt64
	if err := row.Scan(&r.ID, &r.Name, &r.Hash, &r.Scopes, &r.Tenant, &r.Conversations, &r.Created, &revoked, &r.MaxBytes); err != nil {
		return auth.Key{}, err
	}
	if revoked.Valid {
		r.Revoked = &revoked.Int64
	}
	return r.Key()
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
