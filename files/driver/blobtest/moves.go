package blobtest

import (
	"sync"
	"testing"

	"convfiles/files"
)

func runMoves(t *testing.T, mk Maker) {
	t.Run("copy shares nothing a later put can change", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("src.txt"), []byte("original"), false)
		if err := b.Copy(ctx, key("src.txt"), key(versions+"/id/1")); err != nil {
			t.Fatal(err)
		}
		put(t, b, key("src.txt"), []byte("changed"), false)
		if got := read(t, b, key(versions+"/id/1")); got != "original" {
			t.Fatalf("the copy reads %q after its source changed", got)
		}
		if err := b.Copy(ctx, key("src.txt"), key(versions+"/id/1")); err != nil {
			t.Fatalf("copy over an existing copy: %v", err)
		}
		if got := read(t, b, key(versions+"/id/1")); got != "changed" {
			t.Fatalf("a second copy to the same key reads %q", got)
		}
	})

	t.Run("move takes the bytes along, and refuses a taken key when asked", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("from.txt"), []byte("moving"), false)
		put(t, b, key("taken.txt"), []byte("stays"), false)
		if err := b.Move(ctx, key("from.txt"), key("taken.txt"), true); files.KindOf(err) != files.KindConflict {
			t.Fatalf("move onto a taken key without replace: %v", err)
		}
		if read(t, b, key("from.txt")) != "moving" || read(t, b, key("taken.txt")) != "stays" {
			t.Fatal("a refused move changed something")
		}
		if err := b.Move(ctx, key("from.txt"), key("sub/to.txt"), true); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Stat(ctx, key("from.txt")); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("the source is still there: %v", err)
		}
		if got := read(t, b, key("sub/to.txt")); got != "moving" {
			t.Fatalf("moved bytes read %q", got)
		}
		if err := b.Move(ctx, key("sub/to.txt"), key("taken.txt"), false); err != nil {
			t.Fatal(err)
		}
		if got := read(t, b, key("taken.txt")); got != "moving" {
			t.Fatalf("a replacing move left %q", got)
		}
	})

	t.Run("delete removes, and a missing key is no error", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("gone.txt"), []byte("x"), false)
		if err := b.Delete(ctx, key("gone.txt")); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Open(ctx, key("gone.txt")); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("open after delete: %v", err)
		}
		if err := b.Delete(ctx, key("gone.txt")); err != nil {
			t.Fatalf("a second delete: %v", err)
		}
	})

	t.Run("20 concurrent puts to one key leave exactly one writer's bytes", func(t *testing.T) {
		b := mk(t)
		const writers = 20
		payload := func(i int) []byte {
			out := make([]byte, 64<<10)
			for j := range out {
				out[j] = byte('a' + i)
			}
			return out
		}
		var wg sync.WaitGroup
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := sealed(t, b, key("race.bin"), payload(i))
				defer w.Close()
				if err := w.Put(ctx, key("race.bin"), false); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		got := read(t, b, key("race.bin"))
		if len(got) != 64<<10 || got != string(payload(int(got[0]-'a'))) {
			t.Fatalf("the key holds %d bytes mixing writers", len(got))
		}
	})

	t.Run("a cancelled context stops a seal with a cancellation", func(t *testing.T) {
		b := mk(t)
		w, err := b.Create(ctx, key("late.txt"))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		w.Write([]byte("late"))
		cancelled, cancel := contextCancelled()
		defer cancel()
		if _, err := w.Seal(cancelled); files.KindOf(err) != files.KindCancelled {
			t.Fatalf("seal under a cancelled context: %v", err)
		}
	})
}
