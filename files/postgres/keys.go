package postgres

import (
	"context"
	"errors"
	"time"

	"convfiles/auth"
	"convfiles/files"

	"github.com/jackc/pgx/v5"
)

var _ auth.KeyStore = (*Index)(nil)

// CreateKey stores a new API key's record.
func (ix *Index) CreateKey(ctx context.Context, k auth.Key) error {
	r := k.Row()
	_, err := ix.pool.Exec(ctx, `INSERT INTO api_keys (id, name, hash, scopes, tenant, conversations, created_on, max_bytes)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		r.ID, r.Name, r.Hash, r.Scopes, r.Tenant, r.Conversations, r.Created, r.MaxBytes)
	return err
}

const keyColumns = `id, name, hash, scopes, tenant, conversations, created_on, revoked_on, max_bytes`

// Key returns the record of the key with the given ID.
func (ix *Index) Key(ctx context.Context, id string) (auth.Key, error) {
	k, err := scanKey(ix.pool.QueryRow(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return auth.Key{}, files.E("key", files.KindNotFound, id, "no API key has this ID; convfiles keys list shows them", nil)
	}
	return k, err
}

// Keys returns every key's record, oldest first.
func (ix *Index) Keys(ctx context.Context) ([]auth.Key, error) {
	rows, err := ix.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys ORDER BY created_on, id`)
	if err != nil {
		return nil, err
	}
	var out []auth.Key
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

// RevokeKey marks the key revoked at the given time, once.
func (ix *Index) RevokeKey(ctx context.Context, id string, at time.Time) error {
	tag, err := ix.pool.Exec(ctx, `UPDATE api_keys SET revoked_on = COALESCE(revoked_on, $1) WHERE id = $2`, at.UnixNano(), id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return files.E("revoke key", files.KindNotFound, id, "no API key has this ID; convfiles keys list shows them", nil)
	}
	return nil
}

func scanKey(row pgx.Row) (auth.Key, error) {
	var r auth.KeyRow
	if err := row.Scan(&r.ID, &r.Name, &r.Hash, &r.Scopes, &r.Tenant, &r.Conversations, &r.Created, &r.Revoked, &r.MaxBytes); err != nil {
		return auth.Key{}, err
	}
	return r.Key()
}
