package indextest

import (
	"reflect"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// runTransfer holds an index to what moving a store between indexes
// needs: every row handed over a page at a time, rows taken in exactly as
// given, and event numbers continued past another index's.
func runTransfer(t *testing.T, mk Maker) {
	t.Run("Files pages through live and deleted rows in ID order", func(t *testing.T) {
		ix := mk(t)
		for _, n := range []string{"a", "b", "c", "d", "e"} {
			write(t, ix, "c1", n, 1, 1)
		}
		write(t, ix, "c1", "a", 2, 1) // a kept version keeps "a" after its deletion
		write(t, ix, "other", "x", 1, 1)
		gone, _ := ix.Lookup(ctx, "c1", "a")
		if err := ix.Update(ctx, func(tx driver.Tx) error {
			_, err := tx.Apply(driver.Change{Type: files.FileDeleted, Record: gone})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var seen []files.Record
		for after := ""; ; {
			page, err := ix.Files(ctx, "c1", after, 2)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, page...)
			if len(page) < 2 {
				break
			}
			after = page[len(page)-1].ID
		}
		if len(seen) != 5 {
			t.Fatalf("paged through %d rows of c1, want 5 (four live, one deleted)", len(seen))
		}
		deleted := 0
		for i, r := range seen {
			if i > 0 && seen[i-1].ID >= r.ID {
				t.Fatalf("rows out of ID order: %q before %q", seen[i-1].ID, r.ID)
			}
			if r.Deleted != nil {
				deleted++
			}
		}
		if deleted != 1 {
			t.Fatalf("%d deleted rows handed over, want 1", deleted)
		}
	})

	t.Run("Import takes a file and its versions in as given, without an event", func(t *testing.T) {
		ix := mk(t)
		at := time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.UTC)
		rec := files.Record{ID: "imported-1", Conversation: "c1", Name: "dir/a.txt", MIME: "text/plain", Size: 7,
			SHA256: "ab", Version: 3, Source: files.SourceUpload, Session: "s1", DerivedFrom: "f0",
			Created: at, Modified: at.Add(time.Hour), Blob: "obj-3"}
		versions := []files.Version{
			{FileID: "imported-1", Version: 2, Name: "dir/a.txt", MIME: "text/plain", Size: 5, SHA256: "cd", Saved: at, Kept: at.Add(time.Minute), Reason: "overwrite", Blob: "obj-2"},
			{FileID: "imported-1", Version: 1, Name: "old.txt", MIME: "text/plain", Size: 3, SHA256: "ef", Saved: at, Kept: at.Add(time.Second), Reason: "overwrite", Blob: "obj-1"},
		}
		_, before, _ := ix.EventRange(ctx)
		if err := ix.Update(ctx, func(tx driver.Tx) error { return tx.Import(rec, versions) }); err != nil {
			t.Fatal(err)
		}
		got, err := ix.ByID(ctx, "imported-1")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rec) {
			t.Fatalf("imported row reads back as\n%+v\nwant\n%+v", got, rec)
		}
		gotV, err := ix.Versions(ctx, "imported-1")
		if err != nil || !reflect.DeepEqual(gotV, versions) {
			t.Fatalf("imported versions read back as %+v (%v), want %+v", gotV, err, versions)
		}
		if u, _ := ix.Usage(ctx, "c1"); u != (files.Usage{Bytes: 15, Files: 1}) {
			t.Fatalf("usage after the import is %+v, want 15 bytes in 1 file", u)
		}
		if _, after, _ := ix.EventRange(ctx); after != before {
			t.Fatalf("the import recorded events (%d to %d)", before, after)
		}

		del := at.Add(2 * time.Hour)
		gone := files.Record{ID: "imported-2", Conversation: "c1", Name: "gone.txt", Size: 1, Version: 1,
			Source: files.SourceCreated, Created: at, Modified: at, Deleted: &del}
		kept := []files.Version{{FileID: "imported-2", Version: 1, Name: "gone.txt", Size: 1, Saved: at, Kept: del, Reason: "delete"}}
		if err := ix.Update(ctx, func(tx driver.Tx) error { return tx.Import(gone, kept) }); err != nil {
			t.Fatal(err)
		}
		if r, err := ix.ByID(ctx, "imported-2"); err != nil || r.Deleted == nil || !r.Deleted.Equal(del) {
			t.Fatalf("a deleted file imports as %+v (%v), want deleted at %v", r, err, del)
		}
		if _, err := ix.Lookup(ctx, "c1", "gone.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("a deleted import is live: %v", err)
		}
	})

	t.Run("ContinueEvents numbers the next event past another index's", func(t *testing.T) {
		ix := mk(t)
		write(t, ix, "c1", "a", 1, 0)
		if err := ix.ContinueEvents(ctx, 5000); err != nil {
			t.Fatal(err)
		}
		write(t, ix, "c1", "b", 1, 0)
		if err := ix.ContinueEvents(ctx, 10); err != nil { // never backwards
			t.Fatal(err)
		}
		write(t, ix, "c1", "c", 1, 0)
		evs, err := ix.Events(ctx, "c1", 0, 10)
		if err != nil || len(evs) != 3 {
			t.Fatalf("events %+v (%v), want 3", evs, err)
		}
		if evs[1].Seq <= 5000 || evs[2].Seq <= evs[1].Seq {
			t.Fatalf("events numbered %d, %d, %d: want the second past 5000 and the third after it", evs[0].Seq, evs[1].Seq, evs[2].Seq)
		}
	})
}
