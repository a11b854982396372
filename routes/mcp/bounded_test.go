package mcp_test

import (
	"convfiles/internal/tokens"
	"convfiles/ops"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTextIsBoundedAndExact: a log larger than one answer comes back
// in pieces of at most ModelText bytes, each saying where the next
// starts, that put the file back together byte for byte; a binary file
// read as text is refused with the tool that reads it.
func TestReadTextIsBoundedAndExact(t *testing.T) {
	e := newEnv(t, "c1")
	var log strings.Builder
	for i := 0; log.Len() < 3*ops.ModelText; i++ {
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
		if len(r.Content) > ops.ModelText || r.Truncated != (r.Next != 0) {
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

// TestAnswersFitAModelsTurn: the default page of a 3,000-file listing and
// a read of a 1 MiB file each stay under about 25,000 tokens, name the
// cut and the argument that goes on, and come as one text, never doubled
// by a structured copy.
func TestAnswersFitAModelsTurn(t *testing.T) {
	e := newEnv(t, "many")
	for i := range 3000 {
		e.ok("file_write_text", args("id", fmt.Sprintf("reports/2026/quarterly-summary-of-region-%04d.md", i), "content", "x"), nil)
	}
	var prose strings.Builder
	for prose.Len() < 1<<20 {
		prose.WriteString("The quarterly report shows revenue growth in every region, led by the north.\n")
	}
	e.ok("file_write_text", args("id", "report.txt", "content", prose.String()), nil)
	for _, c := range []struct {
		tool string
		in   map[string]any
		next string
	}{
		{"file_list", args(), "offset="},
		{"file_read_text", args("id", "report.txt"), "start_line="},
	} {
		res := e.call(c.tool, c.in)
		if res.IsError || res.StructuredContent != nil || len(res.Content) != 1 {
			t.Fatalf("%s: error %v, structured %v, %d blocks", c.tool, res.IsError, res.StructuredContent != nil, len(res.Content))
		}
		body := text(res)
		n, err := tokens.Count(body)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes, %d tokens", c.tool, len(body), n)
		if len(body) > ops.ModelAnswer || n > 30000 || !strings.Contains(body, `"cut":"cut at `) || !strings.Contains(body, c.next) {
			t.Errorf("%s answered %d bytes, %d tokens, cut named: %v", c.tool, len(body), n, strings.Contains(body, `"cut"`))
		}
	}
	var page struct {
		Files []struct{ Name string }
		Next  int `json:"next_offset"`
	}
	e.ok("file_list", args(), &page)
	var rest struct{ Files []struct{ Name string } }
	e.ok("file_list", args("offset", page.Next), &rest)
	if page.Next != len(page.Files) || len(rest.Files) == 0 || rest.Files[0].Name == page.Files[len(page.Files)-1].Name {
		t.Errorf("the next page starts at %d after %d files: %v", page.Next, len(page.Files), rest.Files[:1])
	}
}
