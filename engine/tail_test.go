package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"convfiles/files"
)

// TestReadTailIsTailN: the last n lines, each with its newline, whether
// the file ends in one or not, and the whole file when it has fewer; a
// long file is read back from its end across spans.
func TestReadTailIsTailN(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "tail")
	ctx := context.Background()
	var long strings.Builder
	for i := 1; i <= 200_000; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	for _, c := range []struct {
		name, data string
		n          int
		want       string
		lines      int
	}{
		{"ends.txt", "a\nb\nc\n", 2, "b\nc\n", 2},
		{"open.txt", "a\nb\nc", 2, "b\nc", 2},
		{"short.txt", "a\nb\n", 5, "a\nb\n", 2},
		{"one.txt", "only", 3, "only", 1},
		{"empty.txt", "", 3, "", 0},
		{"blank.txt", "\n\n\n", 2, "\n\n", 2},
		{"long.txt", long.String(), 3, "line 199998\nline 199999\nline 200000\n", 3},
	} {
		if _, err := sp.WriteBytes(ctx, c.name, []byte(c.data), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		got, lines, truncated, err := sp.ReadTail(ctx, c.name, c.n, 0)
		if err != nil || got != c.want || lines != c.lines || truncated {
			t.Errorf("%s, last %d: %q (%d lines, truncated %v) %v; want %q (%d)", c.name, c.n, got, lines, truncated, err, c.want, c.lines)
		}
	}
	// The whole of a long file is more than the answer may hold: the
	// lines that fit, whole, and truncated says some were left out.
	got, lines, truncated, err := sp.ReadTail(ctx, "long.txt", 300_000, 100)
	if err != nil || !truncated || len(got) > 100 || !strings.HasSuffix(got, "line 200000\n") || !strings.HasPrefix(got, "line ") || lines != strings.Count(got, "\n") {
		t.Errorf("long file bounded to 100 bytes: %q (%d lines, truncated %v) %v", got, lines, truncated, err)
	}
	// A last line longer than the bound: its end.
	sp.WriteBytes(ctx, "wide.txt", []byte("x\n"+strings.Repeat("y", 500)+"z"), files.WriteOptions{})
	if got, lines, truncated, err := sp.ReadTail(ctx, "wide.txt", 1, 10); err != nil || got != "yyyyyyyyyz" || lines != 1 || !truncated {
		t.Errorf("a line wider than the bound: %q (%d lines, truncated %v) %v", got, lines, truncated, err)
	}
	if _, _, _, err := sp.ReadTail(ctx, "ends.txt", 0, 0); files.KindOf(err) != files.KindInvalid {
		t.Errorf("0 lines: %v", err)
	}
	if _, _, _, err := sp.ReadTail(ctx, "missing.txt", 1, 0); files.KindOf(err) != files.KindNotFound {
		t.Errorf("a missing file: %v", err)
	}
}
