package indextest

import (
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/files"
)

// RunKeys checks an index's keeping of API keys (auth.KeyStore): a key
// reads back exactly, revocation happens once and sticks, and an unknown
// ID is not found.
func RunKeys(t *testing.T, mk func(t *testing.T) auth.KeyStore) {
	ks := mk(t)
	created := time.Unix(1_700_000_000, 123).UTC()
	k := auth.Key{ID: "k1", Name: "backend", Hash: "ab12", Scopes: auth.Read | auth.Write, Tenant: "acme-", MaxBytes: 10 << 30, Created: created}
	bound := auth.Key{ID: "k2", Name: "one chat", Hash: "cd34", Scopes: auth.Read, Conversations: []string{"c1", "c2"}, Created: created.Add(time.Second)}
	for _, key := range []auth.Key{k, bound} {
		if err := ks.CreateKey(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ks.Key(ctx, "k2")
	if err != nil || got.Name != "one chat" || got.Scopes != auth.Read || len(got.Conversations) != 2 || got.Conversations[1] != "c2" ||
		!got.Created.Equal(bound.Created) || got.Revoked != nil {
		t.Fatalf("Key(k2) = %+v, %v", got, err)
	}
	first := created.Add(time.Hour)
	if err := ks.RevokeKey(ctx, "k1", first); err != nil {
		t.Fatal(err)
	}
	if err := ks.RevokeKey(ctx, "k1", first.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	all, err := ks.Keys(ctx)
	if err != nil || len(all) != 2 || all[0].ID != "k1" || all[0].Revoked == nil || !all[0].Revoked.Equal(first) || all[0].Tenant != "acme-" ||
		all[0].MaxBytes != 10<<30 || all[1].MaxBytes != 0 {
		t.Fatalf("Keys = %+v, %v; want k1 first, revoked at the first revocation, with its quota", all, err)
	}
	if _, err := ks.Key(ctx, "nope"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("an unknown key: %v", err)
	}
	if err := ks.RevokeKey(ctx, "nope", first); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("revoking an unknown key: %v", err)
	}
}
