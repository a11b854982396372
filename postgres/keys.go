package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"convfiles/internal/keyrows"
	"convfiles/internal/sqltext"

	"github.com/jackc/pgx/v5"
)

var _ keyrows.Store = (*Index)(nil)

// CreateKeyRow stores a new API key's row.
func (ix *Index) CreateKeyRow(ctx context.Context, r keyrows.Row) error {
	_, err := ix.pool.Exec(ctx, insertKey,
		r.ID, r.Name, r.Hash, r.Scopes, r.Tenant, r.Conversations, r.Created, r.MaxBytes)
	return err
}

// KeyRow returns the row of the key with the given ID.
func (ix *Index) KeyRow(ctx context.Context, id string) (keyrows.Row, error) {
	k, err := scanKey(ix.pool.QueryRow(ctx, keyByID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return keyrows.Row{}, fmt.Errorf("%w: %s", keyrows.ErrNotFound, id)
	}
	return k, err
}

// KeyRows returns every key's row, oldest first.
func (ix *Index) KeyRows(ctx context.Context) ([]keyrows.Row, error) {
	rows, err := ix.pool.Query(ctx, sqltext.AllKeys)
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
	tag, err := ix.pool.Exec(ctx, revokeKey, at.UnixNano(), id)
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
