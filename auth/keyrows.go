package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"convfiles/files"
	"convfiles/internal/keyrows"
)

// StoredKeys is the KeyStore over a database's key rows: it encodes a
// Key into the row the database keeps and decodes rows back, so the
// databases store keys without knowing what one means.
func StoredKeys(rows keyrows.Store) KeyStore { return storedKeys{rows} }

type storedKeys struct{ rows keyrows.Store }

func (s storedKeys) CreateKey(ctx context.Context, k Key) error {
	return s.rows.CreateKeyRow(ctx, rowOf(k))
}

func (s storedKeys) Key(ctx context.Context, id string) (Key, error) {
	r, err := s.rows.KeyRow(ctx, id)
	if err != nil {
		return Key{}, notFound("key", id, err)
	}
	return keyOf(r)
}

func (s storedKeys) Keys(ctx context.Context) ([]Key, error) {
	rows, err := s.rows.KeyRows(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Key, 0, len(rows))
	for _, r := range rows {
		k, err := keyOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

func (s storedKeys) RevokeKey(ctx context.Context, id string, at time.Time) error {
	return notFound("revoke key", id, s.rows.RevokeKeyRow(ctx, id, at))
}

// notFound says which ID no key has, and where the IDs are listed.
func notFound(op, id string, err error) error {
	if errors.Is(err, keyrows.ErrNotFound) {
		return files.E(op, files.KindNotFound, id, "no API key has this ID; convfiles keys list shows them", nil)
	}
	return err
}

// keyOf decodes a stored row.
func keyOf(r keyrows.Row) (Key, error) {
	sc, err := ParseScopes(r.Scopes)
	if err != nil {
		return Key{}, err
	}
	k := Key{ID: r.ID, Name: r.Name, Hash: r.Hash, Scopes: sc, Tenant: r.Tenant, MaxBytes: r.MaxBytes, Created: time.Unix(0, r.Created).UTC()}
	if r.Conversations != "" {
		k.Conversations = strings.Split(r.Conversations, "\n")
	}
	if r.Revoked != nil {
		t := time.Unix(0, *r.Revoked).UTC()
		k.Revoked = &t
	}
	return k, nil
}

// rowOf encodes a key as a database stores it.
func rowOf(k Key) keyrows.Row {
	return keyrows.Row{ID: k.ID, Name: k.Name, Hash: k.Hash, Scopes: k.Scopes.String(), Tenant: k.Tenant,
		Conversations: strings.Join(k.Conversations, "\n"), Created: k.Created.UnixNano(), MaxBytes: k.MaxBytes}
}
