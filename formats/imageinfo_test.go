package formats_test

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/samples"
	"convfiles/internal/storetest"
)

// TestImageInfoReadsTheHeader: image.info reads an image's header, not the
// whole file, so it answers for an image larger than the helpers read at
// once (which resize refuses); and an image whose header lies past the
// first part read is still answered, by reading it whole.
func TestImageInfoReadsTheHeader(t *testing.T) {
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"),
		engine.Options{Limits: files.Limits{MaxFileBytes: 2 * formats.MaxInputBytes, MaxConversationBytes: 4 * formats.MaxInputBytes}})
	png := samples.Read(t, "sample.png")
	huge := append(png, make([]byte, formats.MaxInputBytes)...) // trailing bytes a decoder never reaches
	storetest.Put(t, store, "c1", "huge.png", huge)
	storetest.Put(t, store, "c1", "deep.jpg", withPadding(samples.Read(t, "sample.jpg"), 6))
	sp, err := store.Space("c1")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	e := formats.Env{Space: sp}

	info, err := formats.ImageInfo(ctx, e, formats.FileArgs{File: "huge.png"})
	if err != nil || info.Width != 64 || info.Height != 48 || info.Format != "png" {
		t.Errorf("info of a %d-byte PNG: %+v %v", len(huge), info, err)
	}
	if _, err := formats.Resize(ctx, e, formats.ResizeArgs{File: "huge.png", Width: 10}); files.KindOf(err) != files.KindTooLarge ||
		!strings.Contains(err.Error(), "read at once") {
		t.Errorf("resize of the same PNG: %v, want it refused as too large to read", err)
	}
	info, err = formats.ImageInfo(ctx, e, formats.FileArgs{File: "deep.jpg"})
	if err != nil || info.Width != 64 || info.Height != 48 || info.Format != "jpeg" {
		t.Errorf("info of a JPEG whose header is 390 KB in: %+v %v", info, err)
	}
}

// withPadding puts n application segments of 65,000 bytes before a JPEG's
// frame header, as large colour profiles and maker notes do.
func withPadding(jpg []byte, n int) []byte {
	var b bytes.Buffer
	b.Write(jpg[:2]) // SOI
	seg := make([]byte, 65000)
	for range n {
		b.Write([]byte{0xff, 0xe2})
		binary.Write(&b, binary.BigEndian, uint16(len(seg)+2))
		b.Write(seg)
	}
	b.Write(jpg[2:])
	return b.Bytes()
}
