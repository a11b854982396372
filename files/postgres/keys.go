package postgres

import (
	"context"
	"errors"
	"strings"
	"time"

	"convfiles/auth"
	"convfiles/files"

	"github.com/jackc/pgx/v5"
)

var _ auth.KeyStore = (*Index)(nil)

// CreateKey stores a new API key's record.
func (ix *Index) CreateKey(ctx context.Context, k auth.Key) error {
	_, err := ix.pool.Exec(ctx, `INSERT INTO api_keys (id, name, hash, scopes, tenant, conversations, created_on)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		k.ID, k.Name, k.Hash, k.Scopes.String(), k.Tenant, strings.Join(k.Conversations, "\n"), k.Created.UnixNano())
	return err
}

const keyColumns = `id, name, hash, scopes, tenant, conversations, created_on, revoked_on`

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
	var k auth.Key
	var scopes, convs string
	var created int64
	var revoked *int64
	if err := row.Scan(&k.ID, &k.Name, &k.Hash, &scopes, &k.Tenant, &convs, &created, &revoked); err != nil {
		return auth.Key{}, err
	}
	sc, err := auth.ParseScopes(scopes)
	if err != nil {
		return auth.Key{}, err
	}
	k.Scopes, k.Created = sc, time.Unix(0, created).UTC()
	if convs != "" {
		k.Conversations = strings.Split(convs, "\n")
	}
	if revoked != nil {
		t := time.Unix(0, *revoked).UTC()
		k.Revoked = &t
	}
	return k, nil
}
