package ops_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"convfiles/auth"
	"convfiles/content"
	"convfiles/engine"
	"convfiles/ops"
	"convfiles/sqlite"
)

// The search benchmarks run on one conversation of 100,000 text files in
// 100 folders (about 40 MB; one file in a thousand holds "needle"),
// indexed as the server indexes it, against grep and find on the same
// folder.
const benchFiles = 100_000

var (
	bigOnce  sync.Once
	bigDir   string
	bigSpace *engine.Space
	bigErr   error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bigSpace != nil {
		bigSpace.Close()
	}
	if bigDir != "" {
		os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

// bigConversation writes the files straight to disk and lets the store
// index them when it opens, as it does files it finds there.
func bigConversation(b *testing.B) *engine.Space {
	bigOnce.Do(func() {
		if bigDir, bigErr = os.MkdirTemp("", "convfiles-search-bench-"); bigErr != nil {
			return
		}
		conv := filepath.Join(bigDir, "files", "bench")
		line := strings.Repeat("lorem ipsum dolor sit amet ", 3) + "\n"
		for i := range benchFiles {
			dir := filepath.Join(conv, fmt.Sprintf("folder-%03d", i%100))
			if i < 100 {
				if bigErr = os.MkdirAll(dir, 0o755); bigErr != nil {
					return
				}
			}
			text := fmt.Sprintf("file %d\n", i) + strings.Repeat(line, 5)
			if i%1000 == 7 {
				text += "the needle is here\n"
			}
			if bigErr = os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%05d.txt", i)), []byte(text), 0o644); bigErr != nil {
				return
			}
		}
		ix, err := sqlite.Open(filepath.Join(bigDir, "index.db"))
		if err != nil {
			bigErr = err
			return
		}
		store, err := engine.OpenStore(filepath.Join(bigDir, "files"), engine.Options{Index: ix, Sniff: content.SniffMIME})
		if err != nil {
			bigErr = err
			return
		}
		bigSpace, bigErr = store.Space("bench")
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigSpace
}

func runSearch(b *testing.B, in ops.SearchFilesIn, want int) {
	runOp(b, "search", &in, func(res any) string {
		if got := len(res.(ops.SearchFilesOut).Matches); got != want {
			return fmt.Sprintf("%d matches, want %d", got, want)
		}
		return ""
	})
}

// runOp runs the operation name with in over the big conversation;
// check says what is wrong with its answer, if anything.
func runOp(b *testing.B, name string, in any, check func(res any) string) {
	sp := bigConversation(b)
	op, _ := ops.Lookup(name)
	env := ops.Env{Space: sp}
	b.ResetTimer()
	for b.Loop() {
		res, err := op.Run(auth.NewContext(context.Background(), auth.Local), env, in)
		if err != nil {
			b.Fatal(err)
		}
		if wrong := check(res); wrong != "" {
			b.Fatal(wrong)
		}
	}
}

// BenchmarkSearch100kByName finds one file by a glob on its name.
func BenchmarkSearch100kByName(b *testing.B) {
	runSearch(b, ops.SearchFilesIn{Name: "note-04242.txt"}, 1)
}

// BenchmarkSearch100kContent reads every file for a word a hundred hold.
func BenchmarkSearch100kContent(b *testing.B) {
	runSearch(b, ops.SearchFilesIn{Pattern: "needle", MaxResults: 1000}, benchFiles/1000)
}

// BenchmarkSearch100kContentFirst100 stops at the default 100 matches
// of a word on every file's first line.
func BenchmarkSearch100kContentFirst100(b *testing.B) {
	runSearch(b, ops.SearchFilesIn{Pattern: "^file 9"}, 100)
}

// BenchmarkGrep100k is the baseline: grep -rn over the same folder.
func BenchmarkGrep100k(b *testing.B) { runTool(b, "grep", "-rn", "needle", ".") }

// BenchmarkRipgrep100k is the other baseline: ripgrep, which searches
// with a thread per core.
func BenchmarkRipgrep100k(b *testing.B) { runTool(b, "rg", "-n", "--no-heading", "needle", ".") }

// BenchmarkFind100kByName is the baseline of a search by name.
func BenchmarkFind100kByName(b *testing.B) { runTool(b, "find", ".", "-name", "note-04242.txt") }

// BenchmarkList100kGlob is a glob page: the first 1,000 of the 100,000
// files "*.txt" matches, and how many match in all.
func BenchmarkList100kGlob(b *testing.B) {
	runList(b, ops.ListIn{Pattern: "*.txt"}, 1000, benchFiles)
}

// BenchmarkFind100kGlob is the baseline of a glob page: find -name.
func BenchmarkFind100kGlob(b *testing.B) { runTool(b, "find", ".", "-name", "*.txt") }

// BenchmarkList100kGlobFew is a glob that ten of the 100,000 names match.
func BenchmarkList100kGlobFew(b *testing.B) {
	runList(b, ops.ListIn{Pattern: "note-0424?.txt"}, 10, 10)
}

// BenchmarkFind100kGlobFew is its baseline.
func BenchmarkFind100kGlobFew(b *testing.B) { runTool(b, "find", ".", "-name", "note-0424?.txt") }

func runList(b *testing.B, in ops.ListIn, page, total int) {
	runOp(b, "list", &in, func(res any) string {
		if out := res.(ops.ListOut); len(out.Files) != page || out.Total != total {
			return fmt.Sprintf("%d files of %d", len(out.Files), out.Total)
		}
		return ""
	})
}

func runTool(b *testing.B, name string, args ...string) {
	bigConversation(b)
	path, err := exec.LookPath(name)
	if err != nil {
		b.Fatalf("%s is needed as the baseline: %v", name, err)
	}
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(path, args...)
		cmd.Dir = filepath.Join(bigDir, "files", "bench")
		if out, err := cmd.Output(); err != nil || len(out) == 0 {
			b.Fatalf("%s: %v", name, err)
		}
	}
}

// BenchmarkTree100kTop is what the web page asks to show a conversation's
// top folder: each folder's total size and file count, one level deep.
func BenchmarkTree100kTop(b *testing.B) {
	sp := bigConversation(b)
	op, _ := ops.Lookup("tree")
	env := ops.Env{Space: sp}
	in := ops.TreeIn{Depth: 1}
	b.ResetTimer()
	for b.Loop() {
		res, err := op.Run(auth.NewContext(context.Background(), auth.Local), env, &in)
		if err != nil {
			b.Fatal(err)
		}
		if out := res.(ops.TreeOut); out.Files != benchFiles || len(out.Entries) != 100 {
			b.Fatalf("%d files in %d entries", out.Files, len(out.Entries))
		}
	}
}

// BenchmarkDu100kTop is the baseline of a tree: du's folder sizes, one
// level deep.
func BenchmarkDu100kTop(b *testing.B) { runTool(b, "du", "-b", "--max-depth=1", ".") }

// BenchmarkList100kFolder is the other half of what the web page asks for
// a folder: the first page of the files directly in one of 1,000.
func BenchmarkList100kFolder(b *testing.B) {
	sp := bigConversation(b)
	op, _ := ops.Lookup("list")
	env := ops.Env{Space: sp}
	in := ops.ListIn{Folder: "folder-042", Limit: 1000}
	b.ResetTimer()
	for b.Loop() {
		res, err := op.Run(auth.NewContext(context.Background(), auth.Local), env, &in)
		if err != nil {
			b.Fatal(err)
		}
		if out := res.(ops.ListOut); len(out.Files) != 1000 {
			b.Fatalf("%d files", len(out.Files))
		}
	}
}

// BenchmarkLs100kFolder is the baseline of a folder's listing: ls -l.
func BenchmarkLs100kFolder(b *testing.B) { runTool(b, "ls", "-l", "folder-042") }

// BenchmarkTree100kFolder is the tree of one folder of 1,000 files among
// 100,000: what the page asks for when a folder is opened.
func BenchmarkTree100kFolder(b *testing.B) {
	sp := bigConversation(b)
	op, _ := ops.Lookup("tree")
	env := ops.Env{Space: sp}
	in := ops.TreeIn{Path: "folder-042", Depth: 1}
	b.ResetTimer()
	for b.Loop() {
		res, err := op.Run(auth.NewContext(context.Background(), auth.Local), env, &in)
		if err != nil {
			b.Fatal(err)
		}
		if out := res.(ops.TreeOut); out.Files != benchFiles/100 {
			b.Fatalf("%d files", out.Files)
		}
	}
}
