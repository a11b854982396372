package content_test

import (
	"math/rand/v2"
	"testing"

	"convfiles/content"
)

// shortMagics begin files of binary formats that a sniffer recognises by
// their first printable bytes, any of which a note may begin with.
var shortMagics = []string{
	"MZ", "BM", "ID3", "PK", "GIF89a", "GIF87a", "II*", "MM", "OggS", "fLaC", "RIFF", "ftyp",
	"BZh", "7z", "Rar!", "wOFF", "OTTO", "SQLite format 3", "<?php", "P3\n", "P6\n", "#!/bin/sh",
}

// TestTextStaysText: a note is text whatever two magic bytes it starts
// with, under a text extension, under none and under an unknown one.
func TestTextStaysText(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	notes := []string{}
	for _, m := range shortMagics {
		notes = append(notes, m+" is how this note begins, and then it goes on.\n", m)
	}
	for range 20000 {
		b := make([]byte, 1+rng.IntN(64))
		for i := range b {
			b[i] = alnum[rng.IntN(len(alnum))]
		}
		notes = append(notes, string(b))
	}
	for _, note := range notes {
		for _, name := range []string{"note.txt", "note.md", "note", "note.dat"} {
			if kind, mt := content.Detect(name, []byte(note), true); kind != content.KindText {
				t.Fatalf("%s holding %q is %s (%s), not text", name, note, kind, mt)
			}
		}
	}
}

// TestMagicStillNamesBinaryFiles: the bytes of real files of those formats
// (control bytes within the head) keep their format.
func TestMagicStillNamesBinaryFiles(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff", "application/vnd.microsoft.portable-executable"},
		{"PK\x03\x04\x14\x00\x00\x00\x08\x00", "application/zip"},
		{"ID3\x03\x00\x00\x00\x00\x0f\x76", "audio/mpeg"},
		{"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n", "application/pdf"},
		{`<svg xmlns="http://www.w3.org/2000/svg"></svg>`, "image/svg+xml"},
	} {
		if _, mt := content.Detect("x", []byte(tc.head), true); mt != tc.want && !(tc.head[:2] == "MZ" && mt == "application/x-msdownload") {
			t.Errorf("%q is %s, want %s", tc.head, mt, tc.want)
		}
	}
}
