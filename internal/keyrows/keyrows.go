// Package keyrows is what a database keeps of an API key: one row of
// strings and numbers, and the four calls that store and read rows.
// What a row means (scopes, tenants, hashes, revocation) is package
// auth's, which decodes rows into keys; the databases (sqlite, postgres)
// store rows without importing auth. It must never import another
// convfiles package.
package keyrows

import (
	"context"
	"errors"
	"time"
)

// Row is an API key as a database stores it: scopes by name,
// conversations one per line, times in Unix nanoseconds (Revoked nil
// while the key works).
type Row struct {
	ID, Name, Hash, Scopes, Tenant, Conversations string
	Created, MaxBytes                             int64
	Revoked                                       *int64
}

// ErrNotFound is what Key and Revoke answer for an ID no row has.
var ErrNotFound = errors.New("no API key has this ID")

// Store keeps key rows. Implementations are safe for concurrent use and
// durable: a call that returned is committed.
type Store interface {
	// CreateKeyRow stores a new key's row.
	CreateKeyRow(ctx context.Context, r Row) error
	// KeyRow returns the row of the key with the given ID, or an error
	// wrapping ErrNotFound.
	KeyRow(ctx context.Context, id string) (Row, error)
	// KeyRows returns every row, oldest first (by Created, then ID).
	KeyRows(ctx context.Context) ([]Row, error)
	// RevokeKeyRow marks the key revoked at the given time, once: a
	// second revocation keeps the first time. An unknown ID is an error
	// wrapping ErrNotFound.
	RevokeKeyRow(ctx context.Context, id string, at time.Time) error
}
