package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"convfiles/files"
)

func TestWriterAppendSeekAndAbort(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "w")
	ctx := context.Background()
	sp.WriteBytes(ctx, "log.txt", []byte("one\n"), files.WriteOptions{})

	b := files.NewBudget(100)
	w, err := sp.Append(ctx, "log.txt", files.WriteOptions{Budget: b})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("two\n"))
	if got := readAll(t, sp, "log.txt"); got != "one\n" {
		t.Fatalf("an uncommitted append is visible: %q", got)
	}
	info, err := w.Commit()
	if err != nil || info.Replaced != 4 || readAll(t, sp, "log.txt") != "one\ntwo\n" {
		t.Fatalf("append: %v %+v %q", err, info, readAll(t, sp, "log.txt"))
	}
	if b.Used() != 4 {
		t.Fatalf("the budget paid %d for a 4-byte append (the copied bytes are not the run's)", b.Used())
	}

	w, _ = sp.Create(ctx, "log.txt", files.WriteOptions{})
	w.Write([]byte("hello world"))
	w.Seek(0, io.SeekStart)
	w.Write([]byte("HELLO"))
	w.Seek(20, io.SeekStart)
	w.Write([]byte("!"))
	info, _ = w.Commit()
	if got := readAll(t, sp, "log.txt"); got != "HELLO world\x00\x00\x00\x00\x00\x00\x00\x00\x00!" || info.Size != 21 {
		t.Fatalf("seek and overwrite: %q", got)
	}
	if _, err := w.Write([]byte("late")); files.KindOf(err) != files.KindConflict {
		t.Fatalf("write after commit: %v", err)
	}

	w, _ = sp.Create(ctx, "log.txt", files.WriteOptions{})
	w.Write([]byte("discarded"))
	w.Abort()
	w.Abort()
	if got := readAll(t, sp, "log.txt"); !strings.HasPrefix(got, "HELLO") {
		t.Fatalf("abort changed the file: %q", got)
	}
	entries, _ := os.ReadDir(filepath.Join(s.Dir(), "w"))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// TestWriterLimitMidStream: a write that crosses the budget fails, the
// Writer is aborted, and the file keeps its old content.
func TestWriterLimitMidStream(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "w")
	ctx := context.Background()
	sp.WriteBytes(ctx, "data.bin", []byte("old"), files.WriteOptions{})
	w, _ := sp.Create(ctx, "data.bin", files.WriteOptions{Budget: files.NewBudget(10)})
	if _, err := w.Write([]byte("12345678")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("abc")); files.KindOf(err) != files.KindTooLarge {
		t.Fatalf("crossing the budget: %v", err)
	}
	if _, err := w.Commit(); err == nil {
		t.Fatal("a Writer that failed committed")
	}
	if got := readAll(t, sp, "data.bin"); got != "old" {
		t.Fatalf("half-written: %q", got)
	}
}

func TestReadDir(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "d")
	ctx := context.Background()
	for _, n := range []string{"b.txt", "a/x.txt", "a/y/z.txt"} {
		sp.WriteBytes(ctx, n, []byte("x"), files.WriteOptions{})
	}
	top, _ := sp.ReadDir(ctx, "")
	sub, _ := sp.ReadDir(ctx, "a")
	if len(top) != 2 || top[0] != (files.DirEntry{Name: "a", IsDir: true}) || top[1] != (files.DirEntry{Name: "b.txt", IsDir: false}) {
		t.Fatalf("top %+v", top)
	}
	if len(sub) != 2 || sub[0].Name != "x.txt" || sub[1] != (files.DirEntry{Name: "y", IsDir: true}) {
		t.Fatalf("sub %+v", sub)
	}
	if _, err := sp.ReadDir(ctx, "b.txt"); files.KindOf(err) != files.KindConflict {
		t.Fatalf("a file as a folder: %v", err)
	}
	if _, err := sp.ReadDir(ctx, "../x"); files.KindOf(err) != files.KindInvalid {
		t.Fatalf("traversal: %v", err)
	}
}

// TestNoReplaceHasOneWinner: of many concurrent exclusive creates of one
// name exactly one succeeds, and the file holds that one's bytes.
func TestNoReplaceHasOneWinner(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	ctx := context.Background()
	var wins, conflicts atomic.Int32
	var winner atomic.Value
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp := space(t, s, "x")
			body := fmt.Sprintf("creator %d", i)
			_, err := sp.WriteBytes(ctx, "once.txt", []byte(body), files.WriteOptions{NoReplace: true})
			switch files.KindOf(err) {
			case files.KindConflict:
				conflicts.Add(1)
			default:
				if err != nil {
					t.Error(err)
					return
				}
				wins.Add(1)
				winner.Store(body)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != 19 {
		t.Fatalf("%d wins, %d conflicts", wins.Load(), conflicts.Load())
	}
	sp := space(t, s, "x")
	if got := readAll(t, sp, "once.txt"); got != winner.Load() {
		t.Fatalf("file holds %q, winner wrote %q", got, winner.Load())
	}
	if entries, _ := os.ReadDir(filepath.Join(s.Dir(), "x")); len(entries) != 1 {
		t.Fatalf("leftovers: %v", entries)
	}
}
