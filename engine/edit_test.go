package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"convfiles/files"
)

func writeLines(t *testing.T, sp *Space, name string, n int) {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	if _, err := sp.Write(context.Background(), name, strings.NewReader(b.String()), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestReadLinesAcrossCheckpoints(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "l")
	writeLines(t, sp, "big.txt", 3*lineStride+7)
	tests := []struct {
		start, end int
		want       string
	}{
		{1, 2, "line 1\nline 2\n"},
		{lineStride, lineStride + 1, fmt.Sprintf("line %d\nline %d\n", lineStride, lineStride+1)},
		{2*lineStride + 3, 2*lineStride + 3, fmt.Sprintf("line %d\n", 2*lineStride+3)},
		{3*lineStride + 6, 0, fmt.Sprintf("line %d\nline %d\n", 3*lineStride+6, 3*lineStride+7)},
		{3*lineStride + 8, 3*lineStride + 9, ""},
	}
	for _, tt := range tests {
		got, err := sp.ReadLines(context.Background(), "big.txt", files.LineQuery{Start: tt.start, End: tt.end})
		if err != nil || got.Content != tt.want || got.TotalLines != 3*lineStride+7 {
			t.Errorf("lines %d-%d: %q (%d lines) %v", tt.start, tt.end, got.Content, got.TotalLines, err)
		}
	}
	// A file written behind convfiles' back is indexed on first read.
	if _, err := sp.WriteAt(context.Background(), "big.txt", 0, []byte("LINE"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := sp.ReadLines(context.Background(), "big.txt", files.LineQuery{Start: 1, End: 1}); got.Content != "LINE 1\n" {
		t.Errorf("after WriteAt: %q", got.Content)
	}
	sp.WriteBytes(context.Background(), "nolf.txt", []byte("a\nb"), files.WriteOptions{})
	if n, _ := sp.LineCount(context.Background(), "nolf.txt"); n != 2 {
		t.Errorf("a last line without a newline: %d lines", n)
	}
}

// TestReadLinesIsExactAndBounded: ranges read one after another give the
// file back byte for byte, final newline or not; a cap cuts at a line
// boundary with the next line to ask for, or inside a line longer than the
// cap (never inside a character) with the byte to go on from.
func TestReadLinesIsExactAndBounded(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "l")
	ctx := context.Background()
	for _, body := range []string{"a\nb\n", "a\nb", "", "\n\n", "only"} {
		sp.WriteBytes(ctx, "t.txt", []byte(body), files.WriteOptions{})
		whole, err := sp.ReadLines(ctx, "t.txt", files.LineQuery{})
		if err != nil || whole.Content != body || whole.Truncated {
			t.Errorf("whole %q: %+v %v", body, whole, err)
		}
		var parts string
		for i := 1; i <= whole.TotalLines; i++ {
			r, _ := sp.ReadLines(ctx, "t.txt", files.LineQuery{Start: i, End: i})
			parts += r.Content
		}
		if parts != body {
			t.Errorf("line by line %q gives %q", body, parts)
		}
	}
	sp.WriteBytes(ctx, "cap.txt", []byte("11111\n22222\n33333\n"), files.WriteOptions{})
	r, _ := sp.ReadLines(ctx, "cap.txt", files.LineQuery{MaxBytes: 14})
	if r.Content != "11111\n22222\n" || !r.Truncated || r.NextLine != 3 || r.NextOffset != 0 {
		t.Errorf("capped at a line boundary: %+v", r)
	}
	// A line longer than the read buffer that does not fit ends the range
	// before it, though its first pieces would have.
	sp.WriteBytes(ctx, "wide.txt", []byte("short\n"+strings.Repeat("w", 100<<10)+"\n"), files.WriteOptions{})
	r, _ = sp.ReadLines(ctx, "wide.txt", files.LineQuery{MaxBytes: 70 << 10})
	if r.Content != "short\n" || !r.Truncated || r.NextLine != 2 {
		t.Errorf("capped before a wide line: %d bytes, %+v", len(r.Content), r.NextLine)
	}
	sp.WriteBytes(ctx, "long.txt", []byte("ééééé\nx\n"), files.WriteOptions{})
	r, _ = sp.ReadLines(ctx, "long.txt", files.LineQuery{MaxBytes: 5})
	if r.Content != "éé" || !r.Truncated || r.NextOffset != 4 || r.NextLine != 0 {
		t.Errorf("capped inside a long line: %+v", r)
	}
}

func TestReplaceAndInsertLines(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "e")
	ctx := context.Background()
	sp.WriteBytes(ctx, "f.txt", []byte("a\nb\nc\nd\n"), files.WriteOptions{})
	if n, err := sp.ReplaceLines(ctx, "f.txt", 2, 3, "B\nC2\nC3", files.WriteOptions{}); err != nil || n != 5 {
		t.Fatalf("replace: %d %v", n, err)
	}
	if got := readAll(t, sp, "f.txt"); got != "a\nB\nC2\nC3\nd\n" {
		t.Fatalf("replace: %q", got)
	}
	sp.ReplaceLines(ctx, "f.txt", 1, 0, "first", files.WriteOptions{})  // insert before line 1
	sp.ReplaceLines(ctx, "f.txt", 99, 98, "last", files.WriteOptions{}) // insert past the end
	sp.ReplaceLines(ctx, "f.txt", 3, 4, "", files.WriteOptions{})       // delete two lines
	if got := readAll(t, sp, "f.txt"); got != "first\na\nC3\nd\nlast\n" {
		t.Fatalf("insert and delete: %q", got)
	}
	long := strings.Repeat("x", 200<<10)
	sp.WriteBytes(ctx, "long.txt", []byte(long+"\nshort\n"), files.WriteOptions{})
	sp.ReplaceLines(ctx, "long.txt", 1, 0, "before", files.WriteOptions{})
	if got := readAll(t, sp, "long.txt"); got != "before\n"+long+"\nshort\n" {
		t.Fatalf("insert before a line longer than the buffer: %d bytes, starts %q", len(got), got[:10])
	}
	if _, err := sp.ReplaceLines(ctx, "f.txt", 3, 1, "x", files.WriteOptions{}); files.KindOf(err) != files.KindInvalid {
		t.Fatalf("end before start: %v", err)
	}
}

func TestSearchRenameCopyBytes(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "s")
	ctx := context.Background()
	sp.WriteBytes(ctx, "log.txt", []byte("ok 1\nERROR disk\nok 2\nerror net\n"), files.WriteOptions{})
	m, trunc, err := sp.Search(ctx, "log.txt", regexp.MustCompile(`(?i)^error`))
	if err != nil || trunc || len(m) != 2 || m[0] != (files.Match{Line: 2, Content: "ERROR disk"}) || m[1].Line != 4 {
		t.Fatalf("search %+v %v", m, err)
	}
	if _, err := sp.Copy(ctx, "log.txt", "backup/log.txt", files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Rename(ctx, "log.txt", "archive/old.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Stat(ctx, "log.txt"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("the old name survived: %v", err)
	}
	if got := readAll(t, sp, "archive/old.txt"); !strings.HasPrefix(got, "ok 1") {
		t.Fatalf("renamed: %q", got)
	}
	if _, err := sp.Rename(ctx, "archive/old.txt", "backup"); files.KindOf(err) != files.KindConflict {
		t.Fatalf("rename onto a folder: %v", err)
	}
	if _, err := sp.Rename(ctx, "archive/old.txt", "../x"); files.KindOf(err) != files.KindInvalid {
		t.Fatalf("rename out: %v", err)
	}
	sp.WriteAt(ctx, "b.bin", 4, []byte{9, 9}, files.WriteOptions{})
	if b, _ := sp.ReadAt(ctx, "b.bin", 0, 100); string(b) != "\x00\x00\x00\x00\x09\x09" {
		t.Fatalf("bytes: %v", b)
	}
	if b, _ := sp.ReadAt(ctx, "b.bin", 5, 100); len(b) != 1 {
		t.Fatalf("tail read: %v", b)
	}
	if _, err := sp.ReadAt(ctx, "b.bin", 0, files.MaxReadAt+1); files.KindOf(err) != files.KindInvalid {
		t.Fatalf("oversized read: %v", err)
	}
}

func TestSearchStopsAtMaxMatches(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "m")
	writeLines(t, sp, "many.txt", files.MaxMatches+5)
	m, truncated, err := sp.Search(context.Background(), "many.txt", regexp.MustCompile(`^line`))
	if err != nil || !truncated || len(m) != files.MaxMatches || m[files.MaxMatches-1].Line != files.MaxMatches {
		t.Fatalf("%d matches, truncated %v, %v", len(m), truncated, err)
	}
}

// TestRenameNewNeverReplaces: RenameNew refuses a taken name and leaves
// both files as they were; a free name it renames to like Rename.
func TestRenameNewNeverReplaces(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "rn")
	ctx := context.Background()
	sp.WriteBytes(ctx, "a.txt", []byte("a"), files.WriteOptions{})
	sp.WriteBytes(ctx, "b.txt", []byte("b"), files.WriteOptions{})
	if _, err := sp.RenameNew(ctx, "a.txt", "b.txt"); files.KindOf(err) != files.KindConflict {
		t.Fatalf("renaming onto a taken name: %v, want a conflict", err)
	}
	for name, want := range map[string]string{"a.txt": "a", "b.txt": "b"} {
		if got, _ := sp.ReadAt(ctx, name, 0, 10); string(got) != want {
			t.Errorf("%s holds %q after the refused rename, want %q", name, got, want)
		}
	}
	if info, err := sp.RenameNew(ctx, "a.txt", "c/a.txt"); err != nil || info.Name != "c/a.txt" {
		t.Fatalf("renaming to a free name: %+v %v", info, err)
	}
	if _, err := sp.Stat(ctx, "a.txt"); files.KindOf(err) != files.KindNotFound {
		t.Errorf("the old name is still there: %v", err)
	}
}
