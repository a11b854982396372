package blobtest

import (
	"context"
	"slices"
	"testing"

	"convfiles/files"
	"convfiles/files/driver"
)

func runListing(t *testing.T, mk Maker) {
	t.Run("list walks a conversation's files; a reserved folder only when named", func(t *testing.T) {
		b := mk(t)
		for _, p := range []string{"a.txt", "docs/b.md", "docs/deep/c.csv"} {
			put(t, b, key(p), []byte(p), false)
		}
		if err := b.Copy(ctx, key("a.txt"), key(versions+"/f1/1")); err != nil {
			t.Fatal(err)
		}
		w, _ := b.Create(ctx, key("docs/pending.txt")) // in flight: never listed
		defer w.Close()
		if got, want := list(t, b, ""), []string{"a.txt", "docs/b.md", "docs/deep/c.csv"}; !slices.Equal(got, want) {
			t.Fatalf("files: %v, want %v", got, want)
		}
		if got, want := list(t, b, "docs"), []string{"docs/b.md", "docs/deep/c.csv"}; !slices.Equal(got, want) {
			t.Fatalf("below docs: %v, want %v", got, want)
		}
		if got, want := list(t, b, versions), []string{versions + "/f1/1"}; !slices.Equal(got, want) {
			t.Fatalf("versions: %v, want %v", got, want)
		}
		if got := list(t, b, "nowhere"); len(got) != 0 {
			t.Fatalf("a missing folder lists %v", got)
		}
	})

	t.Run("conversations are apart, listed, and removed whole", func(t *testing.T) {
		b := mk(t)
		other := driver.BlobKey{Conversation: "blobtest-other", Path: "a.txt"}
		put(t, b, key("a.txt"), []byte("mine"), false)
		put(t, b, other, []byte("theirs"), false)
		if got := read(t, b, other); got != "theirs" {
			t.Fatalf("the other conversation's a.txt reads %q", got)
		}
		var ids []string
		if err := b.Conversations(ctx, func(id string) error { ids = append(ids, id); return nil }); err != nil {
			t.Fatal(err)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, []string{conv, "blobtest-other"}) {
			t.Fatalf("conversations: %v", ids)
		}
		if err := b.RemoveConversation(ctx, "blobtest-other"); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Open(ctx, other); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("a removed conversation's file opens: %v", err)
		}
		if got := read(t, b, key("a.txt")); got != "mine" {
			t.Fatalf("removing another conversation changed this one: %q", got)
		}
		if err := b.RemoveConversation(ctx, "blobtest-other"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("removing it again: %v, want not found", err)
		}
	})
}

func contextCancelled() (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(context.Background())
	cancel()
	return c, cancel
}
