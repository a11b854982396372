package postgres_test

import (
	"context"
	"errors"
	"fmt"
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

// TestAChangeThatFailsAfterItsFirstStatementLeavesNothing: a change's
// BEGIN is sent with its first statement, so the transaction and its
// connection are the change's own from there on. A change that wrote and
// then failed, panicked or was cancelled commits nothing, and the pool's
// connections (two here, so every change meets a used one) serve the
// changes after it in transactions of their own.
func TestAChangeThatFailsAfterItsFirstStatementLeavesNothing(t *testing.T) {
	ix := open(t, pgserver.Database(t)+"&pool_max_conns=2")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	record := func(id string) files.Record {
		return files.Record{ID: id, Conversation: "c", Name: id + ".txt", MIME: "text/plain", Size: 1, SHA256: "aa",
			Version: 1, Source: files.SourceUpload, Created: at, Modified: at, Blob: "obj-" + id}
	}
	failed := errors.New("the change fails after writing")
	for i := range 6 {
		id := fmt.Sprint("gone", i)
		ctx, cancel := context.WithCancel(context.Background())
		var err error
		func() {
			defer func() { recover() }()
			err = ix.Update(ctx, func(tx driver.Tx) error {
				if err := tx.Import(record(id), nil); err != nil {
					return err
				}
				switch i % 3 {
				case 0:
					return failed
				case 1:
					panic("a change that panics")
				default:
					cancel()
					_, err := tx.Lookup("c", id+".txt")
					return err
				}
			})
		}()
		cancel()
		if i%3 == 0 && !errors.Is(err, failed) {
			t.Fatalf("change %d: %v, want its own error", i, err)
		}
		if err := ix.Update(context.Background(), func(tx driver.Tx) error { return tx.Import(record(fmt.Sprint("kept", i)), nil) }); err != nil {
			t.Fatalf("the change after failed change %d: %v", i, err)
		}
	}
	for i := range 6 {
		if _, err := ix.Lookup(context.Background(), "c", fmt.Sprint("gone", i, ".txt")); files.KindOf(err) != files.KindNotFound {
			t.Errorf("the file of failed change %d: %v, want not found", i, err)
		}
		if _, err := ix.Lookup(context.Background(), "c", fmt.Sprint("kept", i, ".txt")); err != nil {
			t.Errorf("the file of the change after failed change %d: %v", i, err)
		}
	}
}
