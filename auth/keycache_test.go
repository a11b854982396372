package auth_test

import (
	"context"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/sqlite"
)

// TestKeyCache: a cached key works without the index for the TTL; a key
// revoked by another process is refused once the TTL has passed, one
// revoked through the cache at once; a key created elsewhere works at once.
func TestKeyCache(t *testing.T) {
	ix, err := sqlite.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	keys := auth.StoredKeys(ix)
	ctx := context.Background()
	const ttl = 200 * time.Millisecond
	a := &auth.Authenticator{Keys: auth.NewKeyCache(keys, ttl)}
	secret, k, _ := auth.NewKey("cached", auth.Read, "acme-", nil)
	if _, err := a.Authenticate(ctx, secret); err == nil {
		t.Fatal("an unknown key authenticates")
	}
	if err := keys.CreateKey(ctx, k); err != nil { // another process creates it
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, secret); err != nil {
		t.Fatalf("a key created elsewhere waits for the cache: %v", err)
	}
	if err := keys.RevokeKey(ctx, k.ID, time.Now()); err != nil { // another process revokes it
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := a.Authenticate(ctx, secret)
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a key revoked elsewhere still works long after the cache's TTL")
		}
		time.Sleep(20 * time.Millisecond)
	}

	secret2, k2, _ := auth.NewKey("cached", auth.Read, "acme-", nil)
	a.Keys.CreateKey(ctx, k2)
	if _, err := a.Authenticate(ctx, secret2); err != nil {
		t.Fatal(err)
	}
	if err := a.Keys.RevokeKey(ctx, k2.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, secret2); err == nil {
		t.Fatal("a key revoked through the cache still works")
	}
}
