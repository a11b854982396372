package indextest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

func names(recs []files.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Name
	}
	return out
}

func runListing(t *testing.T, mk Maker) {
	t.Run("list pages, sorts and matches globs, character classes included", func(t *testing.T) {
		ix := mk(t)
		for i, n := range []string{"b.txt", "a.txt", "c.md", "a]x", "dir/d.txt"} {
			write(t, ix, "c1", n, int64(10-i), 0)
		}
		write(t, ix, "c2", "z.txt", 1, 0)
		recs, total, err := ix.List(ctx, "c1", files.ListQuery{Sort: files.SortName, Limit: 2, Offset: 1})
		if err != nil || total != 5 || !slices.Equal(names(recs), []string{"a]x", "b.txt"}) {
			t.Fatalf("page 2 by name: %v of %d, %v", names(recs), total, err)
		}
		recs, total, _ = ix.List(ctx, "c1", files.ListQuery{Pattern: "*.txt", Sort: files.SortSize, Desc: true})
		if total != 3 || !slices.Equal(names(recs), []string{"b.txt", "a.txt", "dir/d.txt"}) {
			t.Fatalf("*.txt by size: %v of %d (a pattern without / matches base names at any depth)", names(recs), total)
		}
		recs, _, _ = ix.List(ctx, "c1", files.ListQuery{Pattern: `[a\]]*`, Sort: files.SortName})
		if !slices.Equal(names(recs), []string{"a.txt", "a]x"}) {
			t.Fatalf(`[a\]]*: %v`, names(recs))
		}
	})

	t.Run("a suffix glob, which SQL decides alone, counts and pages as MatchGlob", func(t *testing.T) {
		ix := mk(t)
		all := []string{"a.txt", "a.txt/b", "b.TXT", "c.txt", "d%.txt", "dir/e.txt", "dir/f.txtx", "dir/sub/g.txt", "h_txt"}
		for _, n := range all {
			write(t, ix, "c1", n, 1, 1)
		}
		var want []string
		for _, n := range all {
			if files.MatchGlob("*.txt", n) {
				want = append(want, n)
			}
		}
		recs, total, err := ix.List(ctx, "c1", files.ListQuery{Pattern: "*.txt", Sort: files.SortName, Limit: 2, Offset: 1})
		if err != nil || total != len(want) || !slices.Equal(names(recs), want[1:3]) {
			t.Fatalf("*.txt, page 2 of 2 a page: %v of %d, %v; want %v of %d", names(recs), total, err, want[1:3], len(want))
		}
		if recs, total, _ = ix.List(ctx, "c1", files.ListQuery{Pattern: "**/*.txt", Sort: files.SortName}); !slices.Equal(names(recs), want) || total != len(want) {
			t.Fatalf("**/*.txt: %v of %d, want %v", names(recs), total, want)
		}
		if recs, _, _ = ix.List(ctx, "c1", files.ListQuery{Pattern: "dir/**", Sort: files.SortName}); !slices.Equal(names(recs), []string{"dir/e.txt", "dir/f.txtx", "dir/sub/g.txt"}) {
			t.Fatalf("dir/**: %v", names(recs))
		}
		if recs, _, _ = ix.List(ctx, "c1", files.ListQuery{Pattern: "**/sub/*.txt"}); !slices.Equal(names(recs), []string{"dir/sub/g.txt"}) {
			t.Fatalf("**/sub/*.txt: %v", names(recs))
		}
		if _, total, _ = ix.List(ctx, "c1", files.ListQuery{Pattern: "*_txt"}); total != 1 {
			t.Fatalf("*_txt matches %d names; _ is a character, not a wildcard", total)
		}
	})

	t.Run("a folder's own files, and deleted files newest first", func(t *testing.T) {
		ix := mk(t)
		for i, n := range []string{"top.txt", "dir/a.txt", "dir/b.txt", "dir/sub/c.txt", "dirt.txt"} {
			write(t, ix, "c1", n, int64(i+1), 1)
		}
		recs, total, err := ix.List(ctx, "c1", files.ListQuery{Prefix: "dir/", Direct: true, Sort: files.SortName})
		if err != nil || total != 2 || !slices.Equal(names(recs), []string{"dir/a.txt", "dir/b.txt"}) {
			t.Fatalf("directly in dir/: %v of %d, %v", names(recs), total, err)
		}
		recs, _, _ = ix.List(ctx, "c1", files.ListQuery{Direct: true, Pattern: "*.txt", Sort: files.SortName})
		if !slices.Equal(names(recs), []string{"dirt.txt", "top.txt"}) {
			t.Fatalf("directly at the top, *.txt: %v", names(recs))
		}
		for _, n := range []string{"dir/a.txt", "top.txt"} {
			write(t, ix, "c1", n, 9, 1) // a kept version keeps the row after its deletion
			gone, _ := ix.Lookup(ctx, "c1", n)
			if err := ix.Update(ctx, func(tx driver.Tx) error {
				_, err := tx.Apply(driver.Change{Type: files.FileDeleted, Record: gone})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond) // distinct deletion times
		}
		recs, total, err = ix.List(ctx, "c1", files.ListQuery{Deleted: true})
		if err != nil || total != 2 || !slices.Equal(names(recs), []string{"top.txt", "dir/a.txt"}) || recs[0].Deleted == nil {
			t.Fatalf("deleted, newest first: %v of %d, %v", names(recs), total, err)
		}
		if recs, total, _ = ix.List(ctx, "c1", files.ListQuery{}); total != 3 || slices.Contains(names(recs), "top.txt") {
			t.Fatalf("live files: %v of %d", names(recs), total)
		}
	})

	t.Run("files of one base name left out in any folder, the count without them", func(t *testing.T) {
		ix := mk(t)
		for _, n := range []string{".keep", "a.txt", "dir/.keep", "dir/x.keep", "dir/.KEEP", "dir/sub/.keep", "d.keep/b.txt", "x%/.keep"} {
			write(t, ix, "c1", n, 1, 1)
		}
		recs, total, err := ix.List(ctx, "c1", files.ListQuery{Skip: ".keep", Sort: files.SortName})
		want := []string{"a.txt", "d.keep/b.txt", "dir/.KEEP", "dir/x.keep"}
		if err != nil || total != len(want) || !slices.Equal(names(recs), want) {
			t.Fatalf("without .keep: %v of %d, %v; want %v", names(recs), total, err, want)
		}
		recs, total, _ = ix.List(ctx, "c1", files.ListQuery{Skip: ".keep", Prefix: "dir/", Direct: true, Pattern: "*", Limit: 10})
		if total != 2 || !slices.Equal(names(recs), []string{"dir/.KEEP", "dir/x.keep"}) {
			t.Fatalf("directly in dir/ without .keep: %v of %d", names(recs), total)
		}
	})

	t.Run("sizes of the live files below a prefix, in name order", func(t *testing.T) {
		ix := mk(t)
		for i, n := range []string{"dir/b.txt", "dir/a.txt", "dir/sub/c.txt", "dir0.txt", "dir.txt", "top.txt", "dir/é.txt"} {
			write(t, ix, "c1", n, int64(i+1), 1)
		}
		write(t, ix, "c2", "dir/other.txt", 50, 0)
		gone, _ := ix.Lookup(ctx, "c1", "dir/b.txt")
		if err := ix.Update(ctx, func(tx driver.Tx) error {
			_, err := tx.Apply(driver.Change{Type: files.FileDeleted, Record: gone})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		sizes := func(prefix string) string {
			var out []string
			if err := ix.Sizes(ctx, "c1", prefix, func(name string, size int64) { out = append(out, fmt.Sprint(name, "=", size)) }); err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(out)
		}
		if got := sizes("dir/"); got != "[dir/a.txt=2 dir/sub/c.txt=3 dir/é.txt=7]" {
			t.Fatalf("below dir/: %s (a deleted file, dir.txt, dir0.txt and another conversation's are not)", got)
		}
		if got := sizes(""); got != "[dir.txt=5 dir/a.txt=2 dir/sub/c.txt=3 dir/é.txt=7 dir0.txt=4 top.txt=6]" {
			t.Fatalf("every file: %s", got)
		}
	})

	t.Run("conversations are summarized and removed whole", func(t *testing.T) {
		ix := mk(t)
		write(t, ix, "c1", "a.txt", 3, 1)
		write(t, ix, "c1", "a.txt", 4, 1)
		write(t, ix, "c2", "b.txt", 7, 1)
		write(t, ix, "c1", "made/.keep", 0, 1) // a made folder: not a file
		write(t, ix, "c1", ".keep", 0, 1)
		infos, err := ix.Conversations(ctx)
		if err != nil || len(infos) != 2 || infos[0].ID != "c1" || infos[0].Files != 1 || infos[0].Bytes != 4 || infos[0].VersionBytes != 3 {
			t.Fatalf("Conversations = %+v, %v", infos, err)
		}
		evs, err := ix.RemoveConversation(ctx, "c1")
		if err != nil || len(evs) != 1 || evs[0].Type != files.ConversationDeleted {
			t.Fatalf("RemoveConversation = %+v, %v", evs, err)
		}
		ids, _ := ix.ConversationIDs(ctx)
		if !slices.Equal(ids, []string{"c2"}) {
			t.Fatalf("after removing c1: %v", ids)
		}
		if u, _ := ix.Usage(ctx, "c1"); u != (files.Usage{}) {
			t.Fatalf("a removed conversation still holds %+v", u)
		}
	})

	t.Run("reconcile adds, describes and drops rows to match the blobs", func(t *testing.T) {
		ix := mk(t)
		kept := write(t, ix, "c1", "kept.txt", 4, 0)
		write(t, ix, "c1", "gone.txt", 4, 0)
		described := 0
		stored := []driver.DiskFile{
			{Name: "kept.txt", Size: 4, DiskTime: kept.DiskTime},
			{Name: "new.txt", Size: 2, DiskTime: 1, Describe: func() (string, string, error) {
				described++
				return "text/plain", "ab", nil
			}},
		}
		var published []files.Event
		orphans, err := ix.Reconcile(ctx, "c1", driver.Reconciliation{
			Walk:     each(stored),
			Versions: map[string][]int{"orphan": {1}},
			Publish:  func(evs []files.Event) { published = append(published, evs...) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if described != 1 {
			t.Fatalf("Describe ran %d times; only the new file needs it", described)
		}
		recs, _, _ := ix.List(ctx, "c1", files.ListQuery{Sort: files.SortName})
		if !slices.Equal(names(recs), []string{"kept.txt", "new.txt"}) {
			t.Fatalf("after reconcile: %v", names(recs))
		}
		if !slices.Equal(orphans["orphan"], []int{1}) {
			t.Fatalf("orphan versions %v: bytes without a row go back to the caller", orphans)
		}
		if len(published) != 2 || published[0].Seq == 0 {
			t.Fatalf("events %+v: one for the new file, one for the vanished, committed", published)
		}
	})

	t.Run("reconcile of thousands of files commits them all and publishes every event once", func(t *testing.T) {
		ix := mk(t)
		const gone, added = 2500, 4500
		for i := range gone {
			write(t, ix, "c1", fmt.Sprintf("old/%d", i), 1, 0)
		}
		stored := make([]driver.DiskFile, added)
		for i := range stored {
			stored[i] = driver.DiskFile{Name: fmt.Sprintf("new/%d", i), Size: 1, DiskTime: int64(i + 1),
				Describe: func() (string, string, error) { return "text/plain", "x", nil }}
		}
		seen := map[string]int{}
		calls := 0
		_, err := ix.Reconcile(ctx, "c1", driver.Reconciliation{Walk: each(stored), Publish: func(evs []files.Event) {
			calls++
			for _, ev := range evs {
				seen[string(ev.Type)+" "+ev.Name]++
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != gone+added {
			t.Fatalf("%d distinct events published in %d calls; want %d", len(seen), calls, gone+added)
		}
		for k, n := range seen {
			if n != 1 {
				t.Fatalf("event %q published %d times", k, n)
			}
		}
		if u, _ := ix.Usage(ctx, "c1"); u.Files != added {
			t.Fatalf("usage after reconcile: %+v; want %d files", u, added)
		}
		_, total, _ := ix.List(ctx, "c1", files.ListQuery{Pattern: "old/*"})
		if total != 0 {
			t.Fatalf("%d vanished files still listed", total)
		}
	})
}

// each is a Reconciliation.Walk over stored.
func each(stored []driver.DiskFile) func(func(driver.DiskFile) error) error {
	return func(yield func(driver.DiskFile) error) error {
		for _, d := range stored {
			if err := yield(d); err != nil {
				return err
			}
		}
		return nil
	}
}

func runEvents(t *testing.T, mk Maker) {
	t.Run("events are numbered in commit order and read a page at a time", func(t *testing.T) {
		ix := mk(t)
		for _, n := range []string{"1", "2", "3"} {
			write(t, ix, "c1", n, 1, 0)
		}
		write(t, ix, "c2", "other", 1, 0)
		first, last, err := ix.EventRange(ctx)
		if err != nil || first != 1 || last != 4 {
			t.Fatalf("EventRange = %d..%d, %v", first, last, err)
		}
		evs, _ := ix.Events(ctx, "c1", 1, 10)
		if len(evs) != 2 || evs[0].Name != "2" || evs[1].Name != "3" || evs[0].Seq >= evs[1].Seq {
			t.Fatalf("c1 after 1: %+v", evs)
		}
		evs, _ = ix.Events(ctx, "", 0, 3)
		if len(evs) != 3 || evs[2].Name != "3" {
			t.Fatalf("the first 3 of all: %+v", evs)
		}
	})

	t.Run("the events a change returns are exactly the ones read back", func(t *testing.T) {
		ix := mk(t)
		var applied []files.Event
		for i, typ := range []files.EventType{files.FileCreated, files.FileModified} {
			err := ix.Update(ctx, func(tx driver.Tx) error {
				rec := files.Record{Conversation: "c1", Name: "a.txt", Size: int64(i), MIME: "text/plain", SHA256: "00",
					Source: files.SourceCreated, Session: "s1", Version: i + 1,
					Modified: time.Now().In(time.FixedZone("east", 3600)), Created: time.Now()}
				if prev, err := tx.Lookup("c1", "a.txt"); err == nil {
					rec.ID = prev.ID
				}
				res, err := tx.Apply(driver.Change{Type: typ, Record: rec})
				applied = append(applied, res.Events...)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		stored, err := ix.Events(ctx, "c1", 0, 10)
		if err != nil || !reflect.DeepEqual(applied, stored) {
			t.Fatalf("Apply returned\n%+v\nEvents read back\n%+v (%v)", applied, stored, err)
		}
	})

	t.Run("a cancelled context fails a read with a cancellation", func(t *testing.T) {
		ix := mk(t)
		c, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := ix.List(c, "c1", files.ListQuery{}); err == nil {
			t.Fatal("List under a cancelled context succeeded")
		}
	})
}
