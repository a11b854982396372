package enginetest

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"convfiles/engine"
	"convfiles/files"
)

// runTextEdits checks exact-text edits: the answer, a dry run, refusals
// that leave the file, and concurrent writers that all land or are told.
func runTextEdits(t *testing.T, mk Maker) {
	t.Run("an exact-text edit answers its diff; a dry run writes nothing", func(t *testing.T) {
		s := mk(t, files.Limits{})
		sp := open(t, s.Open)
		write(t, sp, "a.md", "alpha\nbeta\ngamma\n")
		edits := []files.TextEdit{{Old: "beta", New: "BETA"}}
		dry, err := sp.EditText(ctx, "a.md", edits, true, files.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := "--- a/a.md\n+++ b/a.md\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"
		if dry.Diff != want || dry.Replacements != 1 || Read(t, sp, "a.md") != "alpha\nbeta\ngamma\n" {
			t.Fatalf("dry run: %+v, file %q", dry, Read(t, sp, "a.md"))
		}
		res, err := sp.EditText(ctx, "a.md", edits, false, files.WriteOptions{})
		if err != nil || res.Diff != want || res.Info.Size != 17 {
			t.Fatalf("edit: %+v, %v", res, err)
		}
		if got := Read(t, sp, "a.md"); got != "alpha\nBETA\ngamma\n" {
			t.Fatalf("after the edit: %q", got)
		}
	})
	t.Run("refused edits leave the file as it was", func(t *testing.T) {
		s := mk(t, files.Limits{})
		sp := open(t, s.Open)
		write(t, sp, "b.txt", "x y x\n")
		write(t, sp, "bin.dat", "\xff\xfe")
		for _, c := range []struct {
			name  string
			edits []files.TextEdit
			says  string
		}{
			{"b.txt", []files.TextEdit{{Old: "x", New: "z"}}, "matches 2 times"},
			{"b.txt", []files.TextEdit{{Old: "y", New: "Y"}, {Old: "q", New: "Q"}}, "edit 2: old text not found after edit 1 was applied"},
			{"b.txt", []files.TextEdit{{Old: "", New: "Q"}}, "old is empty"},
			{"b.txt", nil, "1 to 100 replacements"},
			{"bin.dat", []files.TextEdit{{Old: "a", New: "b"}}, "not UTF-8 text"},
		} {
			_, err := sp.EditText(ctx, c.name, c.edits, false, files.WriteOptions{})
			if files.KindOf(err) != files.KindInvalid || !strings.Contains(files.MessageOf(err), c.says) {
				t.Errorf("%v: %v, want a refusal saying %q", c.edits, err, c.says)
			}
		}
		if got := Read(t, sp, "b.txt"); got != "x y x\n" {
			t.Fatalf("refused edits changed the file: %q", got)
		}
	})
	t.Run("20 concurrent exact-text edits of distinct lines all land", func(t *testing.T) {
		s := mk(t, files.Limits{})
		var b, want strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, "task %02d: open\n", i)
			fmt.Fprintf(&want, "task %02d: closed\n", i)
		}
		write(t, open(t, s.Open), "t.txt", b.String())
		concurrently(t, s, 20, func(sp *engine.Space, i int) error {
			_, err := sp.EditText(ctx, "t.txt", []files.TextEdit{{Old: fmt.Sprintf("task %02d: open", i), New: fmt.Sprintf("task %02d: closed", i)}},
				false, files.WriteOptions{})
			return err
		})
		if got := Read(t, open(t, s.Open), "t.txt"); got != want.String() {
			t.Fatalf("after 20 edits of distinct lines:\n%s", got)
		}
	})
	t.Run("two edits of the same text: one lands, the other is told", func(t *testing.T) {
		s := mk(t, files.Limits{})
		write(t, open(t, s.Open), "s.txt", "state: draft\n")
		var landed atomic.Int32
		concurrently(t, s, 2, func(sp *engine.Space, i int) error {
			_, err := sp.EditText(ctx, "s.txt", []files.TextEdit{{Old: "state: draft", New: fmt.Sprintf("state: final %d", i)}}, false, files.WriteOptions{})
			if err == nil {
				landed.Add(1)
				return nil
			}
			if !strings.Contains(files.MessageOf(err), "old text not found") {
				return err
			}
			return nil
		})
		if got := Read(t, open(t, s.Open), "s.txt"); landed.Load() != 1 || !strings.HasPrefix(got, "state: final ") {
			t.Fatalf("%d landed, file %q", landed.Load(), got)
		}
	})
}
