package mcp_test

import (
	"convfiles/ops"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTextIsBoundedAndExact: a log larger than one answer comes back
// in pieces of at most MaxTextAnswer bytes, each saying where the next
// starts, that put the file back together byte for byte; a binary file
// read as text is refused with the tool that reads it.
func TestReadTextIsBoundedAndExact(t *testing.T) {
	e := newEnv(t, "c1")
	var log strings.Builder
	for i := 0; log.Len() < 3*ops.MaxTextAnswer; i++ {
		fmt.Fprintf(&log, "%06d request served in %d ms\n", i, i%97)
	}
	e.ok("file_write_text", args("id", "big.log", "content", log.String()), nil)
	var got strings.Builder
	next, pieces := 1, 0
	for next != 0 {
		var r struct {
			Content   string
			Total     int  `json:"total_lines"`
			Truncated bool `json:"truncated"`
			Next      int  `json:"next_start_line"`
		}
		e.ok("file_read_text", args("id", "big.log", "start_line", next), &r)
		if len(r.Content) > ops.MaxTextAnswer || r.Truncated != (r.Next != 0) {
			t.Fatalf("piece %d: %d bytes, truncated %v, next %d", pieces, len(r.Content), r.Truncated, r.Next)
		}
		got.WriteString(r.Content)
		next = r.Next
		pieces++
	}
	if got.String() != log.String() || pieces < 3 {
		t.Fatalf("%d pieces gave %d bytes of %d, equal: %v", pieces, got.Len(), log.Len(), got.String() == log.String())
	}
	png, err := os.ReadFile(filepath.Join("..", "..", "content", "testdata", "sample.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "c1", "sample.png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
	if msg := e.refused("file_read_text", args("id", "sample.png")); !strings.Contains(msg, "file_read_media") {
		t.Fatalf("reading a picture as text: %s", msg)
	}
}

// args builds a tool's arguments from key, value pairs.
func args(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}
