package ops_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/ops"
)

// readEnv is a conversation holding files (name to text), with the
// bound of a door that answers a model.
func readEnv(t *testing.T, texts map[string]string) ops.Env {
	t.Helper()
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{})
	for name, text := range texts {
		storetest.Put(t, store, "c1", name, []byte(text))
	}
	sp, err := store.Space("c1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return ops.Env{Space: sp, MaxText: ops.ModelText}
}

const logText = "start\nwarn: disk 91%\nok\nerror: disk full\nstop\n"

// TestReadsAsCodingAgentsRead: numbered lines as cat -n numbers them, the
// first and last lines, and refusals of two ranges at once.
func TestReadsAsCodingAgentsRead(t *testing.T) {
	env := readEnv(t, map[string]string{"app.log": logText, "short.txt": "a\nb"})
	ctx := context.Background()
	for _, c := range []struct {
		in   ops.ReadTextIn
		want string
	}{
		{ops.ReadTextIn{ID: "app.log", Head: 2, LineNumbers: true}, "     1\tstart\n     2\twarn: disk 91%\n"},
		{ops.ReadTextIn{ID: "app.log", Tail: 2, LineNumbers: true}, "     4\terror: disk full\n     5\tstop\n"},
		{ops.ReadTextIn{ID: "app.log", StartLine: 3, EndLine: 3, LineNumbers: true}, "     3\tok\n"},
		{ops.ReadTextIn{ID: "short.txt", Tail: 1, LineNumbers: true}, "     2\tb"},
		{ops.ReadTextIn{ID: "app.log", Tail: 1}, "stop\n"},
	} {
		out, err := ops.ReadText(ctx, env, c.in)
		if err != nil || out.Content != c.want || out.TotalLines == 0 {
			t.Errorf("%+v: %q (%d lines), %v; want %q", c.in, out.Content, out.TotalLines, err, c.want)
		}
	}
	for _, in := range []ops.ReadTextIn{{ID: "app.log", Head: 1, Tail: 1}, {ID: "app.log", Head: 1, StartLine: 2}, {ID: "app.log", Tail: -1}} {
		if _, err := ops.ReadText(ctx, env, in); files.KindOf(err) != files.KindInvalid {
			t.Errorf("%+v: %v, want a ValidationError", in, err)
		}
	}

	// Numbers make the text longer: the answer stays within the bound and
	// says where to go on.
	many := strings.Repeat("x\n", 40000)
	small := readEnv(t, map[string]string{"many.txt": many})
	small.MaxText = 64 << 10
	out, err := ops.ReadText(ctx, small, ops.ReadTextIn{ID: "many.txt", LineNumbers: true})
	if err != nil || len(out.Content) > 64<<10 || !out.Truncated || out.NextLine != strings.Count(out.Content, "\n")+1 || out.Cut == "" {
		t.Fatalf("numbered past the bound: %d bytes, truncated %v, next %d, cut %q, %v", len(out.Content), out.Truncated, out.NextLine, out.Cut, err)
	}
	rest, _ := ops.ReadText(ctx, small, ops.ReadTextIn{ID: "many.txt", StartLine: out.NextLine, EndLine: out.NextLine, LineNumbers: true})
	if want := strings.Repeat(" ", 6-len(itoa(out.NextLine))) + itoa(out.NextLine) + "\tx\n"; rest.Content != want {
		t.Errorf("going on from line %d: %q, want %q", out.NextLine, rest.Content, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestReadManyAnswersEveryFile reads files in order, each within its
// share of the bound, and a file that cannot be read as its own entry.
func TestReadManyAnswersEveryFile(t *testing.T) {
	env := readEnv(t, map[string]string{"app.log": logText, "big.txt": strings.Repeat("y", 100) + "\n" + strings.Repeat("z\n", 60000), "pic.png": "\x89PNG\r\n\x1a\n\x00\x00"})
	out, err := ops.ReadMany(context.Background(), env, ops.ReadManyIn{IDs: []string{"app.log", "missing.txt", "pic.png", "big.txt"}, Head: 100000})
	if err != nil || len(out.Files) != 4 {
		t.Fatalf("%+v, %v", out, err)
	}
	got := make([]string, len(out.Files))
	total := 0
	for i, f := range out.Files {
		got[i] = f.ID + "|" + map[bool]string{true: "error", false: "text"}[f.Error != ""]
		total += len(f.Content)
	}
	if want := []string{"app.log|text", "missing.txt|error", "pic.png|error", "big.txt|text"}; !reflect.DeepEqual(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	if out.Files[0].Content != logText || !out.Files[3].Truncated || total > ops.ModelText {
		t.Errorf("app.log %q; big.txt truncated %v; %d bytes in all", out.Files[0].Content, out.Files[3].Truncated, total)
	}
	if _, err := ops.ReadMany(context.Background(), env, ops.ReadManyIn{}); files.KindOf(err) != files.KindInvalid {
		t.Errorf("no ids: %v", err)
	}
	// Fifty large files share the bound: the whole answer stays within it.
	fifty := make([]string, ops.MaxReadMany)
	for i := range fifty {
		fifty[i] = "big.txt"
	}
	out, err = ops.ReadMany(context.Background(), env, ops.ReadManyIn{IDs: fifty})
	total = 0
	for _, f := range out.Files {
		total += len(f.Content)
	}
	if err != nil || len(out.Files) != ops.MaxReadMany || total > ops.ModelText || !out.Files[49].Truncated {
		t.Errorf("50 large files: %d entries, %d bytes in all (bound %d), %v", len(out.Files), total, ops.ModelText, err)
	}
	if _, err := ops.ReadMany(context.Background(), env, ops.ReadManyIn{IDs: append(fifty, "app.log")}); files.KindOf(err) != files.KindInvalid {
		t.Errorf("51 ids: %v", err)
	}
}

// TestSearchAsGrepAndRipgrep: lines around a match (-B, -A, -C), the
// names of matching files (-l), counts (-c) and smart case.
func TestSearchAsGrepAndRipgrep(t *testing.T) {
	env := readEnv(t, map[string]string{"app.log": logText, "notes.md": "# Disk\nThe disk filled.\n", "other.txt": "nothing\n"})
	ctx := context.Background()
	out, err := ops.SearchFiles(ctx, env, ops.SearchFilesIn{Pattern: "error", Before: 2, After: 1})
	if err != nil || len(out.Matches) != 1 {
		t.Fatalf("%+v, %v", out, err)
	}
	if m := out.Matches[0]; m.Line != 4 || !reflect.DeepEqual(m.Before, []string{"warn: disk 91%", "ok"}) || !reflect.DeepEqual(m.After, []string{"stop"}) {
		t.Errorf("context: %+v", m)
	}
	out, _ = ops.SearchFiles(ctx, env, ops.SearchFilesIn{Pattern: "disk", Context: 1})
	if len(out.Matches) != 3 || !reflect.DeepEqual(out.Matches[0].Before, []string{"start"}) || !reflect.DeepEqual(out.Matches[2].Before, []string{"# Disk"}) {
		t.Errorf("-C 1: %+v", out.Matches)
	}
	out, _ = ops.SearchFiles(ctx, env, ops.SearchFilesIn{Pattern: "disk", SmartCase: true, Output: "count"})
	if got := hitsOf(out); got != "app.log=2 notes.md=2" {
		t.Errorf("smart case, counts: %s", got)
	}
	out, _ = ops.SearchFiles(ctx, env, ops.SearchFilesIn{Pattern: "Disk", SmartCase: true, Output: "files"})
	if got := hitsOf(out); got != "notes.md=0" {
		t.Errorf("smart case with a capital, names: %s", got)
	}
	out, _ = ops.SearchFiles(ctx, env, ops.SearchFilesIn{Pattern: "o", Output: "files", MaxResults: 1})
	if !out.Truncated || !strings.Contains(out.Reason, "more than 1 files match") || len(out.Matches) != 1 {
		t.Errorf("names past max_results: %+v", out)
	}
	for _, in := range []ops.SearchFilesIn{{Pattern: "x", Context: 21}, {Pattern: "x", Output: "lines"}, {Pattern: "x", Before: -1}} {
		if _, err := ops.SearchFiles(ctx, env, in); files.KindOf(err) != files.KindInvalid {
			t.Errorf("%+v: %v", in, err)
		}
	}
}

func hitsOf(out ops.SearchFilesOut) string {
	var parts []string
	for _, m := range out.Matches {
		parts = append(parts, m.Name+"="+itoa(m.Count))
	}
	return strings.Join(parts, " ")
}

// TestZipBoundsAreKeptBeforeAnyByte refuses, before writing anything, an
// archive of more files or bytes than it may hold, saying the bound.
func TestZipBoundsAreKeptBeforeAnyByte(t *testing.T) {
	env := readEnv(t, map[string]string{"a/1.txt": "one\n", "a/2.txt": "two\n", "a/3.txt": "three\n"})
	ctx := context.Background()
	defer ops.SetZipBounds(2, 1<<30)()
	if _, err := ops.PlanZip(ctx, env.Space, ops.ZipIn{Paths: []string{"a"}}); files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "at most 2 files") {
		t.Errorf("3 files with a bound of 2: %v", err)
	}
	ops.SetZipBounds(10, 8)
	if _, err := ops.PlanZip(ctx, env.Space, ops.ZipIn{Paths: []string{"a"}}); files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "at most 8 B") {
		t.Errorf("14 bytes with a bound of 8: %v", err)
	}
	if plan, err := ops.PlanZip(ctx, env.Space, ops.ZipIn{Paths: []string{"a/1.txt", "a/2.txt"}}); err != nil || len(plan.Files) != 2 {
		t.Errorf("within the bounds: %+v, %v", plan, err)
	}
}
