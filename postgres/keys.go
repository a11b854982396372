package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"convfiles/internal/keyrows"

	"github.com/jackc/pgx/v5"
)

var _ keyrows.Store = (*Index)(nil)

// CreateKeyRow stores a new API key's row.
func (ix *Index) CreateKeyRow(ctx context.Context, r keyrows.Row) error {
	_, err := ix.pool.Exec(ctx, `INSERT INTO api_keys (id, name, hash, scopes, tenant, conversations, created_on, max_bytes)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		r.ID, r.Name, r.Hash, r.Scopes, r.Tenant, r.Conversations, r.Created, r.MaxBytes)
	return err
}

const keyColumns = `id, name, hash, scopes, tenant, conversations, created_on, revoked_on, max_bytes`

// KeyRow returns the row of the key with the given ID.
func (ix *Index) KeyRow(ctx context.Context, id string) (keyrows.Row, error) {
	k, err := scanKey(ix.pool.QueryRow(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return keyrows.Row{}, fmt.Errorf("%w: %s", keyrows.ErrNotFound, id)
	}
	return k, err
}

// KeyRows returns every key's row, oldest first.
func (ix *Index) KeyRows(ctx context.Context) ([]keyrows.Row, error) {
	rows, err := ix.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys ORDER BY created_on, id`)
	if err != nil {
		return nil, err
	}
	var out []keyrows.Row
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// RevokeKeyRow marks the key revoked at the given time, once.
func (ix *Index) RevokeKeyRow(ctx context.Context, id string, at time.Time) error {
	tag, err := ix.pool.Exec(ctx, `UPDATE api_keys SET revoked_on = COALESCE(revoked_on, $1) WHERE id = $2`, at.UnixNano(), id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: %s", keyrows.ErrNotFound, id)
	}
	return nil
}

func scanKey(row pgx.Row) (keyrows.Row, error) {
	var r keyrows.Row
	if err := row.Scan(&r.ID, &r.Name, &r.Hash, &r.Scopes, &r.Tenant, &r.Conversations, &r.Created, &r.Revoked, &r.MaxBytes); err != nil {
		return keyrows.Row{}, err
	}
	return r, nil
}
