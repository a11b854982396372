package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"convfiles/files"
)

// BenchmarkReadFile40MiB reads a 40 MiB file whole, as the format helpers
// and MCP media tools do; its B/op is what one read allocates.
//
//	go test ./files -run '^$' -bench ReadFile40MiB -benchmem -count 6
func BenchmarkReadFile40MiB(b *testing.B) {
	s, _ := newStore(b, files.Limits{})
	sp := space(b, s, "c1")
	data := bytes.Repeat([]byte("0123456789abcdef"), 40<<20/16)
	if _, err := sp.WriteBytes(context.Background(), "big.bin", data, files.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Run("convfiles", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			got, _, err := sp.ReadFile(context.Background(), "big.bin", 50<<20)
			if err != nil || len(got) != len(data) {
				b.Fatalf("read %d bytes: %v", len(got), err)
			}
		}
	})
	// The baseline: os.ReadFile of the same file, without the name checks,
	// the conversation's root or the cap.
	b.Run("os.ReadFile", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		path := filepath.Join(s.Dir(), "c1", "big.bin")
		for b.Loop() {
			got, err := os.ReadFile(path)
			if err != nil || len(got) != len(data) {
				b.Fatalf("read %d bytes: %v", len(got), err)
			}
		}
	})
}
