package js

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"convfiles/internal/samples"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

func TestWriteFileAcceptsEveryContentShape(t *testing.T) {
	pdf := samples.Read(t, "sample.pdf")
	e := runtimetest.NewEnv(t, runtime.Config{})
	sp, _ := e.Store.Space("shapes")
	defer sp.Close()
	sp.WriteBytes(context.Background(), "in.pdf", pdf, writeOpts)
	e.OK("shapes", `
write_file("bytes.bin", new Uint8Array([0, 1, 2, 255]));
write_file("buffer.bin", new Uint8Array([9, 8, 7]).buffer);
write_file("view.bin", new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 3));
write_file("words.u16", new Uint16Array([0x4142]));
write_file("list.json", [1, "two", {three: 3}]);
write_file("number.txt", 42);
write_file("deep/er/folder/x.txt", "nested");
write_file("joined.txt", [read_file("number.txt"), {type: "text", text: "second"}]);
write_file("copy.pdf", read_file("in.pdf"));
write_file("empty.txt", "");
`, nil)
	want := map[string]string{
		"bytes.bin":            "\x00\x01\x02\xff",
		"buffer.bin":           "\x09\x08\x07",
		"view.bin":             "\x02\x03",
		"words.u16":            "BA",
		"list.json":            "[\n  1,\n  \"two\",\n  {\n    \"three\": 3\n  }\n]",
		"number.txt":           "42",
		"deep/er/folder/x.txt": "nested",
		"joined.txt":           "42\n\nsecond",
		"copy.pdf":             string(pdf),
		"empty.txt":            "",
	}
	for name, w := range want {
		f, _, err := sp.Open(context.Background(), name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b := make([]byte, len(w)+10)
		n, _ := f.Read(b)
		f.Close()
		if string(b[:n]) != w {
			t.Errorf("%s holds %q, want %q", name, b[:n], w)
		}
	}
}

func TestWriteFileRefusesMissingContent(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got []string
	e.OK("c", `
const out = [];
for (const args of [[], ["a.txt"], ["a.txt", null], [42, "x"], [{}, "x"]]) {
  try { write_file(...args); out.push("ok") } catch (e) { out.push(e.name + ": " + e.message) }
}
out`, &got)
	for _, g := range got {
		if !strings.HasPrefix(g, "TypeError: write_file(name, content): ") {
			t.Errorf("got %q", g)
		}
	}
}

func TestReadFileTypes(t *testing.T) {
	pdf := samples.Read(t, "sample.pdf")
	e := runtimetest.NewEnv(t, runtime.Config{})
	sp, _ := e.Store.Space("r")
	defer sp.Close()
	sp.WriteBytes(context.Background(), "doc.pdf", pdf, writeOpts)
	sp.WriteBytes(context.Background(), "blob.bin", []byte{0, 1, 2, 3}, writeOpts)
	var got struct {
		PDF struct {
			Type  string
			Pages int
			Text  string
			Str   string
		}
		Bin struct {
			Type, Str, Data string
			JSON            string
		}
	}
	e.OK("r", `
const p = read_file("doc.pdf"), b = read_file("blob.bin");
({pdf: {type: p.type, pages: p.pages, text: p.text, str: p.get_str()},
  bin: {type: b.type, str: b.get_str(), data: b.data, json: JSON.stringify(b)}})`, &got)
	if got.PDF.Type != "pdf" || got.PDF.Pages != 2 || !strings.Contains(got.PDF.Str, "Quarterly totals on page two") {
		t.Errorf("pdf %+v", got.PDF)
	}
	if got.Bin.Type != "file" || got.Bin.Data != "AAECAw==" || !strings.HasPrefix(got.Bin.Str, "[File: blob.bin, application/octet-stream, 4 B, http://") {
		t.Errorf("bin %+v", got.Bin)
	}
	if strings.Contains(got.Bin.JSON, "AAECAw") {
		t.Errorf("content JSON carries its bytes: %s", got.Bin.JSON)
	}
}

func TestListDeleteInfoAndFilesTouched(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		All, CSV, Sub []string
		Info          map[string]any
		Missing       string
	}
	rep := e.OK("l", `
write_file("a.csv", "x,y\n1,2\n");
write_file("sub/b.csv", "x\n");
write_file("sub/c.json", {});
write_file("gone.txt", "soon deleted");
delete_file("gone.txt");
write_file("a.csv", "x,y\n1,2\n3,4\n");
let missing = "";
try { delete_file("gone.txt") } catch (e) { missing = e.name }
({all: list_files().map(f => f.name), csv: list_files("*.csv").map(f => f.name),
  sub: list_files("sub/*").map(f => f.name), info: file_info("a.csv"), missing})`, &got)
	if strings.Join(got.All, ",") != "a.csv,sub/b.csv,sub/c.json" || strings.Join(got.CSV, ",") != "a.csv,sub/b.csv" || strings.Join(got.Sub, ",") != "sub/b.csv,sub/c.json" {
		t.Errorf("listings %+v", got)
	}
	if got.Info["type"] != "text" || got.Info["mime_type"] != "text/csv" || got.Info["size"] != float64(12) {
		t.Errorf("file_info %v", got.Info)
	}
	if got.Missing != "FileNotFoundError" {
		t.Errorf("deleting a missing file: %q", got.Missing)
	}
	b, _ := json.Marshal(rep.FilesTouched)
	want := `[{"name":"a.csv","op":"write","bytes":12,"url":"http://127.0.0.1:8080/files/l/a.csv"},` +
		`{"name":"sub/b.csv","op":"write","bytes":2,"url":"http://127.0.0.1:8080/files/l/sub/b.csv"},` +
		`{"name":"sub/c.json","op":"write","bytes":2,"url":"http://127.0.0.1:8080/files/l/sub/c.json"},` +
		`{"name":"gone.txt","op":"remove"}]`
	if string(b) != want {
		t.Errorf("files_touched\n got %s\nwant %s", b, want)
	}
}

func TestByteCapIsCatchableAndNothingHalfWritten(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{MaxExecutionBytes: 1000})
	var got struct {
		Name, Message string
		Exists        bool
	}
	e.OK("cap", `
write_file("small.txt", "x".repeat(600));
let r = {};
try { write_file("big.txt", "y".repeat(600)) } catch (e) { r = {name: e.name, message: e.message} }
r.exists = list_files().some(f => f.name === "big.txt");
r`, &got)
	if got.Name != "LimitError" || !strings.Contains(got.Message, "this execution may write at most 1000 B") || got.Exists {
		t.Errorf("got %+v", got)
	}
}

func TestResultsAndErrors(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	tests := []struct{ src, result, errType, errFrag string }{
		{`1 + 2`, `3`, "", ""},
		{`const x = {a: [1, 2]}; return x;`, `{"a":[1,2]}`, "", ""},
		{`(async () => { await null; return "later" })()`, `"later"`, "", ""},
		{`let y = 1;`, `null`, "", ""},
		{`Promise.reject(new Error("nope"))`, ``, runtime.TypeExecution, "unhandled promise rejection"},
		{`function (`, ``, runtime.TypeSyntax, "Unexpected token"},
		{"let a = 1;\nlet b = 2;\nthrow new Error('boom on line 3');", ``, runtime.TypeExecution, "boom on line 3"},
		{`const o = {}; o.self = o; o`, ``, runtime.TypeExecution, "cannot be turned into JSON"},
	}
	for _, tt := range tests {
		rep, err := e.Run("res", tt.src)
		if tt.errType == "" {
			if err != nil || string(rep.Result) != tt.result {
				t.Errorf("%q: result %s, err %v; want %s", tt.src, rep.Result, err, tt.result)
			}
			continue
		}
		if err == nil || rep.Error.Type != tt.errType || !strings.Contains(rep.Error.Message, tt.errFrag) {
			t.Errorf("%q: error %+v, want %s mentioning %q", tt.src, rep.Error, tt.errType, tt.errFrag)
		}
	}
	rep, _ := e.Run("res", "let a = 1;\nlet b = 2;\nthrow new Error('boom');")
	if !strings.Contains(rep.Error.Stack, "script.js:3") {
		t.Errorf("stack %q does not point at line 3", rep.Error.Stack)
	}
}

func TestNoConversationMeansNoFiles(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Source: `try { write_file("a", "b") } catch (e) { e.name + ": " + e.message }`})
	if err != nil || !strings.Contains(string(rep.Result), "PermissionError: write_file: this run has no conversation") {
		t.Fatalf("got %s %v", rep.Result, err)
	}
	// Seeds 000 and 001: with file access off, the io and file globals
	// (and os.remove) are absent, not present and throwing.
	rep, err = r.Run(context.Background(), runtime.Request{Source: `[typeof io, typeof file, typeof os]`})
	if err != nil || string(rep.Result) != `["undefined","undefined","undefined"]` {
		t.Fatalf("JS without files: %s %v", rep.Result, err)
	}
}

func TestNothingSurvivesBetweenRuns(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	e.OK("fresh", `globalThis.leak = 1; String.prototype.evil = 1; write_file = null; 0`, nil)
	var got []string
	e.OK("fresh", `[typeof leak, typeof "".evil, typeof write_file]`, &got)
	if strings.Join(got, ",") != "undefined,undefined,function" {
		t.Fatalf("state leaked between runs: %v", got)
	}
}

// TestHelpersAreGlobalsFromTheStart: the helpers are made on first use
// (lazyGlobals), yet a script sees them as globals from the start:
// in, typeof, globalThis lookups, shadowing, assignment and, once used,
// delete behave as for any global.
func TestHelpersAreGlobalsFromTheStart(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got []any
	e.OK("lazy", `
const seen = ["write_file" in globalThis, typeof read_file, typeof globalThis.console.log, typeof setTimeout];
list_files = 5;
const assigned = list_files;
void file_info;
delete globalThis.file_info;
let gone = "";
try { file_info("x") } catch (e) { gone = e.name }
var print = "shadowed";
[...seen, assigned, gone, print, Object.getOwnPropertyNames(globalThis).includes("read_file"), typeof notAHelper]`, &got)
	want := "[true function function function 5 ReferenceError shadowed true undefined]"
	if fmt.Sprint(got) != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

// TestHelperErrorsAreRealErrors: a helper's TypeError is one (instanceof),
// its other errors are Errors with their names, and a script that broke a
// constructor still gets a named error.
func TestHelperErrorsAreRealErrors(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got []any
	e.OK("errs", `
const out = [];
try { write_file(1, "x") } catch (e) { out.push(e instanceof TypeError, e.name) }
try { read_file("missing.txt") } catch (e) { out.push(e instanceof Error, e.name) }
globalThis.TypeError = 5;
try { write_file(1, "x") } catch (e) { out.push(e.name, typeof e.message) }
out`, &got)
	if want := "[true TypeError true FileNotFoundError TypeError string]"; fmt.Sprint(got) != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}
