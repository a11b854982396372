package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"convfiles/files"
)

func TestReadFileRefusesWhatIsTooLarge(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "c1")
	ctx := context.Background()
	if _, err := sp.WriteBytes(ctx, "a.txt", []byte("0123456789"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data, info, err := sp.ReadFile(ctx, "a.txt", 10)
	if err != nil || string(data) != "0123456789" || info.Size != 10 {
		t.Fatalf("ReadFile at its cap: %q %+v %v", data, info, err)
	}
	if _, _, err := sp.ReadFile(ctx, "a.txt", 9); files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "10 B") {
		t.Fatalf("ReadFile over its cap: %v", err)
	}
	if _, _, err := sp.ReadFile(ctx, "../a.txt", 10); files.KindOf(err) != files.KindInvalid {
		t.Fatalf("a hostile name: %v", err)
	}
}

// TestIfUnchangedRefusesAWriteOverAChange is the read-modify-write guard:
// the write lands only over the content that was read.
func TestIfUnchangedRefusesAWriteOverAChange(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "c1")
	ctx := context.Background()
	if _, err := sp.WriteBytes(ctx, "book.xlsx", []byte("v1"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, read, err := sp.ReadFile(ctx, "book.xlsx", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteBytes(ctx, "book.xlsx", []byte("v2 by another writer"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = sp.WriteBytes(ctx, "book.xlsx", []byte("v1 edited"), files.WriteOptions{IfUnchanged: &read})
	if !errors.Is(err, files.ErrChanged) || files.KindOf(err) != files.KindConflict {
		t.Fatalf("a write over a change: %v", err)
	}
	if got, _, _ := sp.ReadFile(ctx, "book.xlsx", 1<<20); string(got) != "v2 by another writer" {
		t.Fatalf("the other writer's content was lost: %q", got)
	}
	_, again, _ := sp.ReadFile(ctx, "book.xlsx", 1<<20)
	if _, err := sp.WriteBytes(ctx, "book.xlsx", []byte("v2 edited"), files.WriteOptions{IfUnchanged: &again}); err != nil {
		t.Fatalf("a write over what was read: %v", err)
	}
	sp.Remove(ctx, "book.xlsx")
	if _, err := sp.WriteBytes(ctx, "book.xlsx", []byte("v3"), files.WriteOptions{IfUnchanged: &again}); !errors.Is(err, files.ErrChanged) {
		t.Fatalf("a write over a deleted file: %v", err)
	}
}
