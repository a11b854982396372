package js

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// toolscript's own cases (seed 001), as JS.

func TestIOExampleFromSeed001(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep := e.OK("io", `
const data = [{id: 1, name: "Ada", total: 10.5}, {id: 2, name: "Lin", total: 7}];
const out = io.open("results.csv", "w");
out.write("id,name,total\n");
for (const row of data) out.write(row.id + "," + row.name + "," + row.total + "\n");
out.close();

const f = io.open("results.csv", "r");
const content = f.read("*a");
f.close();

for (const line of io.lines("results.csv")) print(line);

io.open("temp.txt", "w").write("scratch").close();
const files = io.list(".");
for (const name of files) print(name);
os.remove("temp.txt");
content.length`, nil)
	want := []string{"id,name,total", "1,Ada,10.5", "2,Lin,7", "results.csv", "temp.txt"}
	if strings.Join(rep.Logs, "|") != strings.Join(want, "|") {
		t.Fatalf("logs %q", rep.Logs)
	}
	b, _ := json.Marshal(rep.FilesTouched)
	if string(b) != `[{"name":"results.csv","op":"write","bytes":33,"url":"http://127.0.0.1:8080/files/io/results.csv"},{"name":"temp.txt","op":"remove"}]` {
		t.Fatalf("files_touched %s", b)
	}
}

func TestIORejectsHostileNames(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got []string
	e.OK("io", `
const out = [];
for (const [name, mode] of [["../x", "w"], ["/etc/passwd", "r"], ["a\u0000b", "w"], ["ok.txt", "rw"], ["ok.txt", "r+"]]) {
  try { io.open(name, mode); out.push("opened") } catch (e) { out.push(e.name) }
}
out`, &got)
	if strings.Join(got, ",") != "ValidationError,ValidationError,ValidationError,ValidationError,ValidationError" {
		t.Fatalf("got %v", got)
	}
}

func TestIOByteCapIsCatchableAndNothingHalfWritten(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{MaxExecutionBytes: 1000})
	var got struct {
		Name, Message, Content string
		Closed                 bool
	}
	e.OK("cap", `
io.open("big.txt", "w").write("old content").close();
const f = io.open("big.txt", "w");
let r = {};
try { for (let i = 0; i < 100; i++) f.write("x".repeat(100)) } catch (e) { r = {name: e.name, message: e.message} }
r.closed = f.close();
r.content = io.open("big.txt").read("a");
r`, &got)
	if got.Name != "LimitError" || !strings.Contains(got.Message, "at most 1000 B") || got.Closed || got.Content != "old content" {
		t.Fatalf("got %+v", got)
	}
}

func TestIOHandleCapUseAfterCloseAndFolders(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		Cap, AfterClose, RemoveFolder string
		Types                         []any
	}
	e.OK("h", `
write_file("d/inner.txt", "x");
const hs = [];
let cap = "";
try { for (let i = 0; i < 65; i++) hs.push(io.open("f" + i + ".txt", "w")) } catch (e) { cap = e.name + ": " + e.message }
hs.forEach(h => h.close());
const again = io.open("f0.txt", "w"); again.close();
let afterClose = "";
try { again.write("x") } catch (e) { afterClose = e.message }
let removeFolder = "";
try { os.remove("d") } catch (e) { removeFolder = e.name }
({cap, afterClose, removeFolder, types: [io.type(again), io.type(io.open("f1.txt")), io.type({}), io.type("x")]})`, &got)
	if !strings.Contains(got.Cap, "LimitError: io.open(name, mode): at most 64 files may be open at once") {
		t.Errorf("cap: %q", got.Cap)
	}
	if !strings.Contains(got.AfterClose, "attempt to use a closed file") || got.RemoveFolder != "ConflictError" {
		t.Errorf("after close %q, removing a folder %q", got.AfterClose, got.RemoveFolder)
	}
	if b, _ := json.Marshal(got.Types); string(b) != `["closed file","file",null,null]` {
		t.Errorf("io.type: %s", b)
	}
}

func TestIOBinaryRoundTripAndReadFormats(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		Same                      bool
		Len                       int
		Line, LineEnd, Chunk, Num any
		Num2                      any
		Rest                      string
		EOF                       any
		Pos                       int
		Again                     string
	}
	e.OK("b", `
const bytes = new Uint8Array(256); for (let i = 0; i < 256; i++) bytes[i] = i;
io.open("all.bin", "wb").write(bytes).close();
const back = io.open("all.bin", "rb").read("a");
io.open("t.txt", "w").write("first line\r\n", "second\n", 42, " 3.5e2 tail\n", "rest").close();
const t = io.open("t.txt");
const r = {same: back instanceof Uint8Array && back.length === 256 && back.every((v, i) => v === i), len: back.length,
  line: t.read(), lineEnd: t.read("L"), num: t.read("n"), num2: t.read("*n"), chunk: t.read(5), rest: t.read("a"), eof: t.read()};
r.pos = t.seek("set", 6); r.again = t.read(4);
r`, &got)
	if !got.Same || got.Len != 256 {
		t.Errorf("binary round trip: %+v", got)
	}
	if got.Line != "first line" || got.LineEnd != "second\n" || got.Num != float64(42) || got.Num2 != float64(350) || got.Chunk != " tail" || got.Rest != "\nrest" || got.EOF != nil || got.Pos != 6 || got.Again != "line" {
		t.Errorf("read formats: %+v", got)
	}
}

// TestIOHandlesClosedAtTheEndOfARun: a handle the script never closes is
// saved when the run succeeds, discarded when it fails, and no file
// descriptor outlives the run.
func TestIOHandlesClosedAtTheEndOfARun(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	fds := func() int { d, _ := os.ReadDir("/proc/self/fd"); return len(d) }
	e.OK("end", `write_file("warm.txt", "open the folder once")`, nil)
	before := fds()
	e.OK("end", `io.open("kept.txt", "w").write("saved"); io.open("warm.txt", "r"); io.open("app.txt", "a").write("x"); 1`, nil)
	e.Run("end", `io.open("kept.txt", "w").write("lost"); throw new Error("boom")`)
	if after := fds(); after != before {
		t.Fatalf("file descriptors: %d before, %d after", before, after)
	}
	sp, _ := e.Store.Space("end")
	defer sp.Close()
	f, _, err := sp.Open(context.Background(), "kept.txt")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 10)
	n, _ := f.Read(b)
	f.Close()
	if string(b[:n]) != "saved" {
		t.Fatalf("kept.txt holds %q", b[:n])
	}
	entries, _ := os.ReadDir(filepath.Join(e.Store.Dir(), "end"))
	for _, en := range entries {
		if files.IsReserved(en.Name()) {
			t.Fatalf("temporary file left: %s", en.Name())
		}
	}
}

func TestAppendIsReportedAsAppend(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	e.OK("a", `write_file("log.txt", "one\n")`, nil)
	rep := e.OK("a", `const f = io.open("log.txt", "a"); f.write("two\n"); f.close(); io.open("log.txt", "a").write("three\n").close()`, nil)
	b, _ := json.Marshal(rep.FilesTouched)
	if string(b) != `[{"name":"log.txt","op":"append","bytes":14,"url":"http://127.0.0.1:8080/files/a/log.txt"}]` {
		t.Fatalf("files_touched %s", b)
	}
}

// TestFileSaveFromSeed000 runs seed 000's example with file.save.
func TestFileSaveFromSeed000(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got struct {
		Path    string
		Summary struct{ Total, Sum float64 }
	}
	rep := e.OK("fs", `
const data = {items: [{id: "t1", date: "2024-01-02", amount: 12.5, category: "food"}, {id: "t2", date: "2024-01-03", amount: 7.25, category: "travel"}]};
let csv = "id,date,amount,category\n";
for (const tx of data.items) csv += tx.id + "," + tx.date + "," + tx.amount.toFixed(2) + "," + tx.category + "\n";
const path = file.save("transactions.csv", csv);
const summary = {total: data.items.length, sum: 0};
for (const tx of data.items) summary.sum += tx.amount;
file.save("summary.json", JSON.stringify(summary));
({path, summary})`, &got)
	want := filepath.Join(e.Store.Dir(), "fs", "transactions.csv")
	if got.Path != want || got.Summary.Total != 2 || got.Summary.Sum != 19.75 {
		t.Fatalf("got %+v, path want %s", got, want)
	}
	if b, _ := os.ReadFile(want); string(b) != "id,date,amount,category\nt1,2024-01-02,12.50,food\nt2,2024-01-03,7.25,travel\n" {
		t.Fatalf("on disk: %q", b)
	}
	if len(rep.FilesTouched) != 2 || rep.FilesTouched[1].Name != "summary.json" {
		t.Fatalf("files_touched %+v", rep.FilesTouched)
	}
	sp, _ := e.Store.Space("fs2")
	defer sp.Close()
	r := runtime.New(runtime.Config{MaxExecutionBytes: 10})
	rep2, _ := r.Run(context.Background(), runtime.Request{Space: sp, Source: `let m = ""; try { file.save("a.txt", "x".repeat(11)) } catch (e) { m = e.name } m`})
	if string(rep2.Result) != `"LimitError"` {
		t.Fatalf("file.save over the cap: %s", rep2.Result)
	}
}
