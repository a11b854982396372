package indextest

import (
	"errors"
	"testing"
	"time"

	"convfiles/internal/keyrows"
)

// RunKeys checks a database's keeping of API keys' rows (keyrows.Store):
// a row reads back exactly, revocation happens once and sticks, rows
// list oldest first, and an unknown ID is not found.
func RunKeys(t *testing.T, mk func(t *testing.T) keyrows.Store) {
	ks := mk(t)
	created := time.Unix(1_700_000_000, 123).UTC().UnixNano()
	k := keyrows.Row{ID: "k1", Name: "backend", Hash: "ab12", Scopes: "read,write", Tenant: "acme-", MaxBytes: 10 << 30, Created: created}
	bound := keyrows.Row{ID: "k2", Name: "one chat", Hash: "cd34", Scopes: "read", Conversations: "c1\nc2", Created: created + int64(time.Second)}
	for _, r := range []keyrows.Row{k, bound} {
		if err := ks.CreateKeyRow(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ks.KeyRow(ctx, "k2")
	if err != nil || got.Name != "one chat" || got.Scopes != "read" || got.Conversations != "c1\nc2" || got.Hash != "cd34" ||
		got.Created != bound.Created || got.Revoked != nil {
		t.Fatalf("KeyRow(k2) = %+v, %v", got, err)
	}
	first := time.Unix(0, created).Add(time.Hour)
	if err := ks.RevokeKeyRow(ctx, "k1", first); err != nil {
		t.Fatal(err)
	}
	if err := ks.RevokeKeyRow(ctx, "k1", first.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	all, err := ks.KeyRows(ctx)
	if err != nil || len(all) != 2 || all[0].ID != "k1" || all[0].Revoked == nil || *all[0].Revoked != first.UnixNano() || all[0].Tenant != "acme-" ||
		all[0].MaxBytes != 10<<30 || all[1].MaxBytes != 0 {
		t.Fatalf("KeyRows = %+v, %v; want k1 first, revoked at the first revocation, with its quota", all, err)
	}
	if _, err := ks.KeyRow(ctx, "nope"); !errors.Is(err, keyrows.ErrNotFound) {
		t.Fatalf("an unknown key: %v", err)
	}
	if err := ks.RevokeKeyRow(ctx, "nope", first); !errors.Is(err, keyrows.ErrNotFound) {
		t.Fatalf("revoking an unknown key: %v", err)
	}
}
