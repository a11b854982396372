// Package indextest is the conformance suite of the metadata half of the
// storage seam (driver.Index), in the style of perkeep's storagetest: the
// SQLite index (in a file and in memory) runs it today, and every other
// implementation must pass it too.
//
// It sees only the driver interfaces: it must never import an
// implementation, the engine or os.
package indextest

import (
	"context"
	"errors"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// Maker returns an empty index for one test, closed by t.Cleanup.
type Maker func(t *testing.T) driver.Index

var ctx = context.Background()

// write records the write of name in conv as one Update, keeping the
// content it replaces as a version when keep > 0, as a Space does.
func write(t *testing.T, ix driver.Index, conv, name string, size int64, keep int) files.Record {
	t.Helper()
	var out files.Record
	err := ix.Update(ctx, func(tx driver.Tx) error {
		rec := files.Record{Conversation: conv, Name: name, Size: size, MIME: "text/plain", SHA256: "00",
			Source: files.SourceCreated, Modified: time.Now()}
		c := driver.Change{Type: files.FileCreated, Record: rec, Keep: keep}
		if prev, err := tx.Lookup(conv, name); err == nil {
			rec.ID, rec.Version, rec.Created = prev.ID, prev.Version+1, prev.Created
			c = driver.Change{Type: files.FileModified, Record: rec, Keep: keep}
			if keep > 0 {
				c.Kept = &files.Version{FileID: prev.ID, Version: prev.Version, Name: prev.Name, Size: prev.Size,
					SHA256: prev.SHA256, Saved: prev.Modified, Kept: time.Now(), Reason: "overwrite"}
			}
		} else {
			rec.Version, rec.Created = 1, time.Now()
			c.Record = rec
		}
		res, err := tx.Apply(c)
		out = res.Record
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Run runs every case against indexes from mk.
func Run(t *testing.T, mk Maker) {
	t.Run("a committed write is found by name and by ID, and counted", func(t *testing.T) {
		ix := mk(t)
		rec := write(t, ix, "c1", "a.txt", 5, 0)
		if rec.ID == "" {
			t.Fatal("Apply gave the new file no ID")
		}
		byName, err := ix.Lookup(ctx, "c1", "a.txt")
		if err != nil || byName.ID != rec.ID || byName.Size != 5 {
			t.Fatalf("Lookup = %+v, %v", byName, err)
		}
		byID, err := ix.ByID(ctx, rec.ID)
		if err != nil || byID.Name != "a.txt" {
			t.Fatalf("ByID = %+v, %v", byID, err)
		}
		if _, err := ix.Lookup(ctx, "c2", "a.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("another conversation sees the file: %v", err)
		}
		if u, err := ix.Usage(ctx, "c1"); err != nil || u != (files.Usage{Bytes: 5, Files: 1}) {
			t.Fatalf("Usage = %+v, %v", u, err)
		}
	})

	t.Run("an error inside Update rolls everything back", func(t *testing.T) {
		ix := mk(t)
		boom := errors.New("boom")
		err := ix.Update(ctx, func(tx driver.Tx) error {
			if _, err := tx.Apply(driver.Change{Type: files.FileCreated, Record: files.Record{Conversation: "c1", Name: "x.txt", Size: 9, Version: 1}}); err != nil {
				return err
			}
			if u, _ := tx.Usage("c1"); u.Bytes != 9 {
				t.Errorf("inside the transaction usage is %+v, want its own change counted", u)
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v, want fn's error as is", err)
		}
		if _, err := ix.Lookup(ctx, "c1", "x.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("a rolled back file is visible: %v", err)
		}
		if u, _ := ix.Usage(ctx, "c1"); u != (files.Usage{}) {
			t.Fatalf("a rolled back change is counted: %+v", u)
		}
		if _, last, _ := ix.EventRange(ctx); last != 0 {
			t.Fatalf("a rolled back change left event %d", last)
		}
	})

	t.Run("a batch commits its members together and undoes a failed one alone", func(t *testing.T) {
		ix := mk(t)
		boom := errors.New("boom")
		create := func(name string, size int64, fail bool) func(driver.Tx) error {
			return func(tx driver.Tx) error {
				rec := files.Record{Conversation: "c1", Name: name, Size: size, Version: 1}
				if _, err := tx.Apply(driver.Change{Type: files.FileCreated, Record: rec}); err != nil {
					return err
				}
				if fail {
					return boom
				}
				return nil
			}
		}
		errs, err := ix.UpdateBatch(ctx, []func(driver.Tx) error{
			create("a.txt", 1, false), create("b.txt", 10, true), create("c.txt", 100, false)})
		if err != nil || len(errs) != 3 || errs[0] != nil || !errors.Is(errs[1], boom) || errs[2] != nil {
			t.Fatalf("UpdateBatch = %v, %v; want only the second member's error", errs, err)
		}
		if _, err := ix.Lookup(ctx, "c1", "b.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("the failed member's file is visible: %v", err)
		}
		for _, n := range []string{"a.txt", "c.txt"} {
			if _, err := ix.Lookup(ctx, "c1", n); err != nil {
				t.Fatalf("%s of a member that succeeded: %v", n, err)
			}
		}
		if u, _ := ix.Usage(ctx, "c1"); u != (files.Usage{Bytes: 101, Files: 2}) {
			t.Fatalf("usage %+v: the failed member must not count", u)
		}
		if evs, _ := ix.Events(ctx, "c1", 0, 10); len(evs) != 2 || evs[0].Name != "a.txt" || evs[1].Name != "c.txt" {
			t.Fatalf("events %+v: one per member that succeeded, in order", evs)
		}
	})

	t.Run("overwrites keep versions up to the keep count, and the pruned are reported", func(t *testing.T) {
		ix := mk(t)
		first := write(t, ix, "c1", "v.txt", 1, 2)
		for size := int64(2); size <= 4; size++ {
			write(t, ix, "c1", "v.txt", size, 2)
		}
		vs, err := ix.Versions(ctx, first.ID)
		if err != nil || len(vs) != 2 || vs[0].Version != 3 || vs[1].Version != 2 {
			t.Fatalf("versions = %+v, %v; want 3 and 2, newest first", vs, err)
		}
		if u, _ := ix.Usage(ctx, "c1"); u.Bytes != 4+3+2 || u.Files != 1 {
			t.Fatalf("usage %+v: the live file and its kept versions count", u)
		}
	})

	t.Run("concurrent Updates are serialized: none of 20 increments is lost", func(t *testing.T) {
		ix := mk(t)
		write(t, ix, "c1", "n.txt", 0, 0)
		done := make(chan error, 20)
		for range 20 {
			go func() {
				done <- ix.Update(ctx, func(tx driver.Tx) error {
					rec, err := tx.Lookup("c1", "n.txt")
					if err != nil {
						return err
					}
					rec.Size++
					rec.Version++
					_, err = tx.Apply(driver.Change{Type: files.FileModified, Record: rec})
					return err
				})
			}()
		}
		for range 20 {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		if rec, _ := ix.Lookup(ctx, "c1", "n.txt"); rec.Size != 20 {
			t.Fatalf("size %d after 20 increments", rec.Size)
		}
	})

	runListing(t, mk)
	runEvents(t, mk)
	runTransfer(t, mk)
	runAllowance(t, mk)
}
