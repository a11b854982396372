package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/files"
)

// BenchmarkEdit100KiB changes one line of a 2,000-line (100 KiB) text
// file three ways on the same store (no index, so the edit itself is
// measured): by exact text with its diff, by line number, and by writing
// the whole file as a client that read it would.
func BenchmarkEdit100KiB(b *testing.B) {
	s, err := OpenStore(filepath.Join(b.TempDir(), "files"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	sp, _ := s.Space("bench")
	defer sp.Close()
	ctx := context.Background()
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "line %04d: %s\n", i, strings.Repeat("x", 38))
	}
	if _, err := sp.WriteBytes(ctx, "doc.txt", []byte(text.String()), files.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	toggle := func(i int) (string, string) {
		if i%2 == 0 {
			return "line 1000: x", "line 1000: y"
		}
		return "line 1000: y", "line 1000: x"
	}
	b.Run("exact-text", func(b *testing.B) {
		i := 0
		for b.Loop() {
			old, new := toggle(i)
			i++
			if _, err := sp.EditText(ctx, "doc.txt", []files.TextEdit{{Old: old, New: new}}, false, files.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("line-number", func(b *testing.B) {
		for b.Loop() {
			if _, err := sp.ReplaceLines(ctx, "doc.txt", 1001, 1001, "line 1000: "+strings.Repeat("x", 38), files.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole-file", func(b *testing.B) {
		for b.Loop() {
			data, _, err := sp.ReadFile(ctx, "doc.txt", 1<<20)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := sp.WriteBytes(ctx, "doc.txt", data, files.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
