package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/pgserver"
)

// TestAStatementPutOffFailsItsChangeWithItsOwnError: a change's statements
// whose answers it does not read are sent with the next one it reads. One
// that the server refuses (here a kept version whose name holds a NUL,
// which PostgreSQL's text cannot) fails the change with its own error, not
// a later statement's, and nothing of the change is committed.
func TestAStatementPutOffFailsItsChangeWithItsOwnError(t *testing.T) {
	ix := open(t, pgserver.Database(t))
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := files.Record{ID: "f1", Conversation: "c", Name: "a.txt", MIME: "text/plain", Size: 1, SHA256: "aa",
		Version: 1, Source: files.SourceUpload, Created: at, Modified: at, Blob: "obj-1"}
	if err := ix.Update(ctx, func(tx driver.Tx) error { return tx.Import(rec, nil) }); err != nil {
		t.Fatal(err)
	}
	next := rec
	next.Version, next.Size, next.SHA256, next.Blob, next.Modified = 2, 2, "bb", "obj-2", at.Add(time.Minute)
	kept := files.Version{FileID: "f1", Version: 1, Name: "a\x00.txt", MIME: "text/plain", Size: 1, SHA256: "aa",
		Saved: at, Kept: at.Add(time.Minute), Reason: "overwrite", Blob: "obj-1"}
	err := ix.Update(ctx, func(tx driver.Tx) error {
		_, err := tx.Apply(driver.Change{Type: files.FileModified, Record: next, Kept: &kept, Keep: 5})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "0x00") {
		t.Fatalf("a kept version the server refuses: %v, want the server's refusal of its NUL byte", err)
	}
	got, err := ix.Lookup(ctx, "c", "a.txt")
	if err != nil || got.Version != 1 || got.Blob != "obj-1" {
		t.Fatalf("after the failed change the file is %+v (%v), want version 1 as it was", got, err)
	}
	versions, err := ix.Versions(ctx, "f1")
	if err != nil || len(versions) != 0 {
		t.Fatalf("after the failed change the file has versions %+v (%v), want none", versions, err)
	}
}
