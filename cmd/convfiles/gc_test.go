package main

import (
	"context"
	"io"
	"log/slog"
	"runtime/debug"
	"testing"
	"time"

	"convfiles/runtime"
)

// TestTunedGCDoesNotStopScriptsForGarbage runs, under the collector
// settings of a server with a raised GOGC, a script that makes 400 MiB of
// short-lived strings, never holding more than one, against a 96 MiB
// memory limit: garbage waiting for collection is not memory the script
// holds, so it must finish. Without the soft memory limit the guard counts
// the garbage and stops it.
func TestTunedGCDoesNotStopScriptsForGarbage(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	cfg := defaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.Runtime.MemoryLimit = 96 << 20
	tuneGC(cfg, 2000)
	scripts, err := newScripting(cfg, &env{stdout: io.Discard, stderr: io.Discard, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer scripts.close()
	rep, err := scripts.Run(context.Background(), runtime.Request{Timeout: time.Minute,
		Source: `let n = 0; for (let i = 0; i < 400; i++) { n += ("x" + i).repeat(1 << 19).length } n`})
	if err != nil {
		t.Fatalf("the script was stopped: %v", err)
	}
	if string(rep.Result) != "781189120" { // 1,490 characters × 2¹⁹
		t.Fatalf("the script returned %s", rep.Result)
	}
}
