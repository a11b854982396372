package js

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// TestFilesTier1: seed 004's generic file management from a script.
func TestFilesTier1(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		Created, Copied, Renamed map[string]string
		Names                    []string
		Info                     map[string]any
		Dup, BadPattern          string
	}
	rep := e.OK("t1", `
const created = files.create("notes/todo.md");
files.writeText(created.id, "# To do\n- one\n");
let dup = ""; try { files.create("notes/todo.md") } catch (e) { dup = e.name }
let badPattern = ""; try { files.list("[a-") } catch (e) { badPattern = e.name }
const copied = files.copy(created.id, "notes/todo-copy.md");
const renamed = files.rename(copied.id, "archive/todo.md");
files.delete("notes/todo.md");
({created, copied, renamed, dup, badPattern, names: files.list().map(f => f.name), info: files.info("archive/todo.md")})`, &got)
	if got.Created["id"] != "notes/todo.md" || got.Renamed["name"] != "archive/todo.md" || got.Dup != "ConflictError" || got.BadPattern != "ValidationError" {
		t.Fatalf("records %+v", got)
	}
	if strings.Join(got.Names, ",") != "archive/todo.md" || got.Info["mime_type"] != "text/markdown" || got.Info["id"] != "archive/todo.md" {
		t.Fatalf("list %v info %v", got.Names, got.Info)
	}
	b, _ := json.Marshal(rep.FilesTouched)
	if !strings.Contains(string(b), `{"name":"notes/todo.md","op":"remove"}`) || !strings.Contains(string(b), `"name":"archive/todo.md","op":"write"`) {
		t.Fatalf("files_touched %s", b)
	}
}

// TestFilesTier2: line-based text access without loading whole files.
func TestFilesTier2(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		Range    map[string]any
		Count    int
		Replaced map[string]any
		Inserted map[string]any
		Final    string
		Search   struct {
			Matches   []map[string]any
			Truncated bool
		}
		BadPattern string
	}
	e.OK("t2", `
let csv = "id,amount\n";
for (let i = 1; i <= 10000; i++) csv += i + "," + (i * 3) + "\n";
files.writeText("data.csv", csv);
const range = files.readText("data.csv", {startLine: 5001, endLine: 5003});
const count = files.lineCount("data.csv");
files.writeText("small.txt", "a\nb\nc\n");
const replaced = files.replaceLines("small.txt", 2, 2, "B1\nB2");
const inserted = files.insertLines("small.txt", 0, "header");
const final = files.readText("small.txt").content;
const search = files.searchText("data.csv", /^99\d\d,/);
let badPattern = ""; try { files.searchText("data.csv", "(?=x)") } catch (e) { badPattern = e.name }
({range, count, replaced, inserted, final, search, badPattern})`, &got)
	if got.Range["content"] != "5000,15000\n5001,15003\n5002,15006\n" || got.Range["totalLines"] != float64(10001) || got.Count != 10001 {
		t.Errorf("readText %v count %d", got.Range, got.Count)
	}
	if got.Replaced["totalLines"] != float64(4) || got.Inserted["totalLines"] != float64(5) || got.Final != "header\na\nB1\nB2\nc\n" {
		t.Errorf("edits %v %v %q", got.Replaced, got.Inserted, got.Final)
	}
	if len(got.Search.Matches) != 100 || got.Search.Matches[0]["line"] != float64(9901) || got.Search.Truncated {
		t.Errorf("search %d matches, first %v", len(got.Search.Matches), got.Search.Matches[0])
	}
	if got.BadPattern != "ValidationError" {
		t.Errorf("lookahead pattern: %q", got.BadPattern)
	}
}

func TestFilesRawBytes(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		Head, Tail, All string
		Size            int
	}
	e.OK("raw", `
files.writeBytes("blob.bin", 0, "AAECAw==");        // 00 01 02 03
files.appendBytes("blob.bin", "BAU=");              // 04 05
const size = files.writeBytes("blob.bin", 8, "/w==").size; // ff at 8, zeros between
({head: files.readBytes("blob.bin", 0, 2), tail: files.readBytes("blob.bin", 6, 10), all: files.readBytes("blob.bin", 0, 100), size})`, &got)
	if got.Head != "AAE=" || got.Tail != "AAD/" || got.All != "AAECAwQFAAD/" || got.Size != 9 {
		t.Fatalf("got %+v", got)
	}
}

// TestReadTextSaysWhereToGoOn: a range larger than one read (16 MiB)
// comes back cut at a line boundary with truncated and nextStartLine, and the
// next read from there returns the rest.
func TestReadTextSaysWhereToGoOn(t *testing.T) {
	// 34 MiB of JS strings take 3.5–5 s under the race detector on a
	// loaded machine: the default 5 s timeout is what this test is not about.
	e := runtimetest.NewEnv(t, runtime.Config{Timeout: time.Minute})
	var got struct {
		Len, RestLen, Next, Total int
		Truncated, RestWhole      bool
	}
	e.OK("c1", `
const line = "y".repeat(1023) + "\n";
files.writeText("huge.txt", line.repeat(17 * 1024));
const first = files.readText("huge.txt");
const rest = files.readText("huge.txt", {startLine: first.nextStartLine});
({len: first.content.length, truncated: first.truncated, next: first.nextStartLine, total: first.totalLines,
  restLen: rest.content.length, restWhole: rest.truncated === undefined})`, &got)
	if got.Len != 16<<20 || !got.Truncated || got.Next != 16*1024+1 || got.Total != 17*1024 || got.RestLen != 1<<20 || !got.RestWhole {
		t.Fatalf("read in two parts: %+v", got)
	}
}

// TestListsComeAPageAtATime: files.list and list_files answer at most
// limit files, and the array says how many match and where the next page
// starts; the last page says no more.
func TestListsComeAPageAtATime(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		First, Second       []string
		Total, Next, LTotal int
		LNext, AfterLast    any
	}
	e.OK("c1", `
for (const n of ["a.txt", "b.txt", "c.txt"]) files.writeText(n, n);
const first = files.list(null, {limit: 2}), second = files.list(null, {limit: 2, offset: first.next_offset});
const l = list_files("*.txt", {limit: 1});
({first: first.map(f => f.name), second: second.map(f => f.name), total: first.total, next: first.next_offset,
  lTotal: l.total, lNext: l.next_offset, afterLast: second.next_offset === undefined ? null : second.next_offset})`, &got)
	if strings.Join(got.First, ",") != "a.txt,b.txt" || strings.Join(got.Second, ",") != "c.txt" || got.Total != 3 || got.Next != 2 ||
		got.LTotal != 3 || got.LNext != float64(1) || got.AfterLast != nil {
		t.Fatalf("pages: %+v", got)
	}
}
