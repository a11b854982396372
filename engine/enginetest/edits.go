package enginetest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"convfiles/engine"
	"convfiles/files"
)

// concurrently runs n writers at once, writer i through its own Space: of
// the first process, or every other one of a second process when the
// setup has one. It fails the test on any error.
func concurrently(t *testing.T, s Setup, n int, fn func(sp *engine.Space, i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := range n {
		opener := s.Open
		if s.Other != nil && i%2 == 1 {
			opener = s.Other
		}
		sp := opener()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sp.Close()
			<-start
			if err := fn(sp, i); err != nil {
				errs <- fmt.Errorf("writer %d: %w", i, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func runEdits(t *testing.T, mk Maker) {
	t.Run("50 concurrent appends all land", func(t *testing.T) {
		s := mk(t, files.Limits{})
		write(t, open(t, s.Open), "log.txt", "start\n")
		concurrently(t, s, 50, func(sp *engine.Space, i int) error {
			w, err := sp.Append(ctx, "log.txt", files.WriteOptions{})
			if err != nil {
				return err
			}
			defer w.Abort()
			if _, err := fmt.Fprintf(w, "append %02d\n", i); err != nil {
				return err
			}
			_, err = w.Commit()
			return err
		})
		got := Read(t, open(t, s.Open), "log.txt")
		checkLines(t, got, "start", 50, "append %02d")
	})
	t.Run("50 concurrent line inserts all land", func(t *testing.T) {
		s := mk(t, files.Limits{})
		write(t, open(t, s.Open), "s.txt", "last\n")
		concurrently(t, s, 50, func(sp *engine.Space, i int) error {
			_, err := sp.ReplaceLines(ctx, "s.txt", 1, 0, fmt.Sprintf("writer %02d", i), files.WriteOptions{})
			return err
		})
		got := Read(t, open(t, s.Open), "s.txt")
		if !strings.HasSuffix(got, "last\n") {
			t.Fatalf("the original line moved: %q", got)
		}
		checkLines(t, strings.TrimSuffix(got, "last\n"), "", 50, "writer %02d")
	})
	t.Run("20 concurrent replaceLines on distinct lines all land", func(t *testing.T) {
		s := mk(t, files.Limits{})
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, "line %02d\n", i)
		}
		write(t, open(t, s.Open), "r.txt", b.String())
		concurrently(t, s, 20, func(sp *engine.Space, i int) error {
			_, err := sp.ReplaceLines(ctx, "r.txt", i+1, i+1, fmt.Sprintf("edited %02d", i), files.WriteOptions{})
			return err
		})
		var want strings.Builder
		for i := range 20 {
			fmt.Fprintf(&want, "edited %02d\n", i)
		}
		if got := Read(t, open(t, s.Open), "r.txt"); got != want.String() {
			t.Fatalf("after 20 edits of distinct lines:\n%s", got)
		}
	})
	t.Run("20 concurrent byte writes at distinct offsets all land", func(t *testing.T) {
		s := mk(t, files.Limits{})
		write(t, open(t, s.Open), "b.bin", strings.Repeat(".", 20))
		concurrently(t, s, 20, func(sp *engine.Space, i int) error {
			_, err := sp.WriteAt(ctx, "b.bin", int64(i), []byte{'a' + byte(i)}, files.WriteOptions{})
			return err
		})
		if got := Read(t, open(t, s.Open), "b.bin"); got != "abcdefghijklmnopqrst" {
			t.Fatalf("after 20 byte writes: %q", got)
		}
	})
	t.Run("an edit over a changed file is a conflict when asked", func(t *testing.T) {
		s := mk(t, files.Limits{})
		sp := open(t, s.Open)
		write(t, sp, "c.txt", "one\n")
		_, info, err := sp.ReadFile(ctx, "c.txt", 100)
		if err != nil {
			t.Fatal(err)
		}
		write(t, open(t, s.Open), "c.txt", "two, longer\n")
		_, err = sp.ReplaceLines(ctx, "c.txt", 1, 1, "three", files.WriteOptions{IfUnchanged: &info})
		if files.KindOf(err) != files.KindConflict || !errors.Is(err, files.ErrChanged) {
			t.Fatalf("edit over a change: %v", err)
		}
		if got := Read(t, sp, "c.txt"); got != "two, longer\n" {
			t.Fatalf("a refused edit changed the file: %q", got)
		}
	})
	t.Run("an append that rewrote old bytes is a conflict, not a loss", func(t *testing.T) {
		s := mk(t, files.Limits{})
		sp := open(t, s.Open)
		write(t, sp, "h.txt", "abc")
		w, err := sp.Append(ctx, "h.txt", files.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		w.Seek(0, io.SeekStart)
		w.Write([]byte("X"))
		write(t, open(t, s.Open), "h.txt", "abcdef")
		if _, err := w.Commit(); !errors.Is(err, files.ErrChanged) {
			t.Fatalf("commit over a change after a seek back: %v", err)
		}
		if got := Read(t, sp, "h.txt"); got != "abcdef" {
			t.Fatalf("after the refused append: %q", got)
		}
	})
}

// checkLines checks that text is the line first (when not "") followed by
// n lines made from format and 0..n-1, each exactly once, in any order.
func checkLines(t *testing.T, text, first string, n int, format string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if first != "" {
		if lines[0] != first {
			t.Fatalf("first line %q, want %q", lines[0], first)
		}
		lines = lines[1:]
	}
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf(format, i))
	}
	slices.Sort(lines)
	if !slices.Equal(lines, want) {
		t.Fatalf("%d lines landed, want %d:\n%s", len(lines), n, text)
	}
}
