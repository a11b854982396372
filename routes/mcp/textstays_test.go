package mcp_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestNotesWrittenAsTextReadBackAsText: random alphanumeric notes, and
// notes that begin with each short magic of a binary format, written with
// file_write_text under a text name, an unknown one and none, all read
// back with file_read_text as they were written.
func TestNotesWrittenAsTextReadBackAsText(t *testing.T) {
	e := newEnv(t, "")
	rng := rand.New(rand.NewPCG(3800, 36))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	notes := []string{"MZ", "MZ90", "BM", "BMP is a format", "ID3", "PK", "PK is short for pack", "GIF89a", "II*", "MM", "OggS",
		"fLaC", "RIFF", "BZh9", "7z", "Rar!", "wOFF", "OTTO", "SQLite format 3", "P6\n1 1\n255\n"}
	for range 400 {
		b := make([]byte, 2+rng.IntN(40))
		for i := range b {
			b[i] = alnum[rng.IntN(len(alnum))]
		}
		notes = append(notes, string(b))
	}
	for i, note := range notes {
		name := []string{"notes/%d.txt", "notes/%d.note", "notes/%d"}[i%3]
		name = fmt.Sprintf(name, i)
		e.ok("file_write_text", args("conversation_id", "notes", "id", name, "content", note), nil)
		var read struct{ Content string }
		e.ok("file_read_text", args("conversation_id", "notes", "id", name), &read)
		if read.Content != note {
			t.Fatalf("%s holding %q read back as %q", name, note, read.Content)
		}
	}
}
