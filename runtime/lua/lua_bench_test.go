package lua

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/benchrun"
	"convfiles/runtime"
)

// BenchmarkLuaVsJS runs the same two scripts in Lua and in JavaScript, in
// one run, each a whole execution (a fresh state, every binding, the
// limits, the report): a hello world, and a run that writes 1 MiB with
// write_file (atomic and synced, on a store without an index).
func BenchmarkLuaVsJS(b *testing.B) {
	store, err := engine.OpenStore(filepath.Join(benchrun.Dir(b), "files"), engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	sp, _ := store.Space("bench")
	defer sp.Close()
	r := runtime.New(runtime.Config{})
	// As a sandbox worker runs them: one at a time, in a process the
	// kernel bounds (no in-VM size guards).
	worker := runtime.New(runtime.Config{Contained: true, Exclusive: true})
	for _, c := range []struct {
		name string
		lang runtime.Language
		src  string
	}{
		{"hello/js", runtime.JavaScript, `console.log("hello, world"); "hello"`},
		{"hello/lua", runtime.Lua, `print("hello, world"); return "hello"`},
		{"hello-worker/js", runtime.JavaScript, `console.log("hello, world"); "hello"`},
		{"hello-worker/lua", runtime.Lua, `print("hello, world"); return "hello"`},
		{"write1MiB/js", runtime.JavaScript, `write_file("big.txt", "x".repeat(1 << 20))`},
		{"write1MiB/lua", runtime.Lua, `return write_file("big.txt", string.rep("x", 1048576))`},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := runtime.Request{Source: c.src, Language: c.lang}
			if c.name[:5] == "write" {
				req.Space = sp
				b.SetBytes(1 << 20)
			}
			run := r
			if strings.HasPrefix(c.name, "hello-worker/") {
				run = worker
			}
			benchrun.ReportMedian(b, func() {
				if _, err := run.Run(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
