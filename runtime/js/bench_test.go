package js

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/internal/benchrun"
	"convfiles/runtime"
	"convfiles/sqlite"

	"github.com/dop251/goja"
)

const helloWorld = `console.log("hello, world"); "hello"`

// BenchmarkHelloWorld measures a whole execution: a fresh VM, every binding,
// the limits, the script and its report.
func BenchmarkHelloWorld(b *testing.B) {
	r := runtime.New(runtime.Config{})
	benchrun.ReportMedian(b, func() {
		if _, err := r.Run(context.Background(), runtime.Request{Source: helloWorld}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkHelloWorldBareGoja is the baseline: goja.New and the same script,
// with no bindings, limits or report.
func BenchmarkHelloWorldBareGoja(b *testing.B) {
	benchrun.ReportMedian(b, func() {
		vm := goja.New()
		vm.Set("console", map[string]any{"log": func(...any) {}})
		if _, err := vm.RunString(helloWorld); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkWriteReadMiB has a script write_file and read_file 1 MiB of text
// (atomic, synced write; typed read) b.N times in one run.
func BenchmarkWriteReadMiB(b *testing.B) {
	store, err := engine.OpenStore(filepath.Join(benchrun.Dir(b), "files"), engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	benchWriteRead(b, store)
}

// BenchmarkWriteReadMiBIndexed is the same on a Store as the server runs
// it: with the metadata index (SHA-256, MIME, a row and an event per
// write) and versions (each overwrite keeps the old content, the sixth
// oldest is pruned).
func BenchmarkWriteReadMiBIndexed(b *testing.B) {
	dir := benchrun.Dir(b)
	ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	store, err := engine.OpenStore(filepath.Join(dir, "files"), engine.Options{Index: ix, Sniff: content.SniffMIME})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	benchWriteRead(b, store)
}

func benchWriteRead(b *testing.B, store *engine.Store) {
	sp, _ := store.Space("bench")
	defer sp.Close()
	r := runtime.New(runtime.Config{Timeout: time.Hour, MaxExecutionBytes: -1})
	b.SetBytes(1 << 20)
	b.ResetTimer()
	src := `const s = "x".repeat(1 << 20); for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) { write_file("big.txt", s); if (read_file("big.txt").size !== s.length) throw new Error("short") }`
	if _, err := r.Run(context.Background(), runtime.Request{Source: src, Space: sp}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriteReadMiBGoBaseline is the baseline: os.WriteFile and
// os.ReadFile of the same bytes on the same disk.
func BenchmarkWriteReadMiBGoBaseline(b *testing.B) {
	p := filepath.Join(benchrun.Dir(b), "big.txt")
	data := []byte(strings.Repeat("x", 1<<20))
	b.SetBytes(1 << 20)
	for b.Loop() {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if got, err := os.ReadFile(p); err != nil || len(got) != len(data) {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteReadMiBGoDurable is the fair baseline: the same durability
// convfiles gives (temporary file, fsync, rename, fsync of the folder) in
// plain Go, then os.ReadFile.
func BenchmarkWriteReadMiBGoDurable(b *testing.B) {
	dir := benchrun.Dir(b)
	p, tmp := filepath.Join(dir, "big.txt"), filepath.Join(dir, "big.txt.tmp")
	data := []byte(strings.Repeat("x", 1<<20))
	b.SetBytes(1 << 20)
	for b.Loop() {
		f, err := os.Create(tmp)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(data)
		f.Sync()
		f.Close()
		if err := os.Rename(tmp, p); err != nil {
			b.Fatal(err)
		}
		d, _ := os.Open(dir)
		d.Sync()
		d.Close()
		if got, err := os.ReadFile(p); err != nil || len(got) != len(data) {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunawayOvershoot runs each runaway script of the limits test
// and reports how long past its timeout (or, for limits that stop a script
// early, how long in all) the caller waited for the report. Run it with
// -benchtime 1x: each run is seconds long.
func BenchmarkRunawayOvershoot(b *testing.B) {
	r := runtime.New(runtime.Config{})
	for _, rw := range runaways {
		b.Run(strings.ReplaceAll(rw.name, " ", "_"), func(b *testing.B) {
			var worst time.Duration
			for b.Loop() {
				start := time.Now()
				rep, err := r.Run(context.Background(), runtime.Request{Source: rw.src, Timeout: rw.timeout})
				took := time.Since(start)
				if err == nil {
					b.Fatalf("%s succeeded", rw.name)
				}
				over := took
				if rep.Error.Type == runtime.TypeTimeout {
					over = took - rw.timeout
				}
				worst = max(worst, over)
				r.Wait()
			}
			b.ReportMetric(float64(worst.Microseconds())/1e3, "overshoot-ms")
		})
	}
}

const helloTS = "interface Greeting { message: string }\nconst g: Greeting = { message: \"Hello, World!\" };\nconsole.log(JSON.stringify(g));\n"

// BenchmarkTypeScriptCold runs a TypeScript hello-world whose source is new
// every time: each run pays the TypeScript step and the parse.
func BenchmarkTypeScriptCold(b *testing.B) {
	r := runtime.New(runtime.Config{})
	i := 0
	benchrun.ReportMedian(b, func() {
		i++
		src := helloTS + "// run " + strconv.Itoa(i) + "\n"
		if _, err := r.Run(context.Background(), runtime.Request{Source: src, Filename: "hello.ts"}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkTypeScriptCached runs the same TypeScript source again and again:
// after the first run it is served from the program cache.
func BenchmarkTypeScriptCached(b *testing.B) {
	r := runtime.New(runtime.Config{})
	benchrun.ReportMedian(b, func() {
		if _, err := r.Run(context.Background(), runtime.Request{Source: helloTS, Filename: "hello.ts"}); err != nil {
			b.Fatal(err)
		}
	})
	if n := transpiles(r); n != 1 {
		b.Fatalf("%d transpiles for one source", n)
	}
}
