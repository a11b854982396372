package js

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/runtime"
)

// env is a Runner over a real Store in a temporary folder.
type env struct {
	t      *testing.T
	store  *engine.Store
	runner *runtime.Runner
}

func newEnv(t *testing.T, cfg runtime.Config) *env {
	t.Helper()
	store, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if cfg.Link == nil {
		cfg.Link = func(conv, name string) string { return "http://127.0.0.1:8080/files/" + conv + "/" + name }
	}
	return &env{t: t, store: store, runner: runtime.New(cfg)}
}

// run executes src in conversation conv and returns the report and error.
func (e *env) run(conv, src string) (*runtime.Report, error) {
	e.t.Helper()
	sp, err := e.store.Space(conv)
	if err != nil {
		e.t.Fatal(err)
	}
	defer sp.Close()
	return e.runner.Run(context.Background(), runtime.Request{Source: src, Space: sp})
}

// ok runs src, fails the test on a script error, and decodes the result.
func (e *env) ok(conv, src string, result any) *runtime.Report {
	e.t.Helper()
	rep, err := e.run(conv, src)
	if err != nil {
		e.t.Fatalf("script failed: %v\nlogs: %v", err, rep.Logs)
	}
	if result != nil {
		if err := json.Unmarshal(rep.Result, result); err != nil {
			e.t.Fatalf("result %s: %v", rep.Result, err)
		}
	}
	return rep
}

// runWithTimeout is run with a per-request timeout.
func (e *env) runWithTimeout(conv, src string, timeout time.Duration) (*runtime.Report, error) {
	e.t.Helper()
	sp, err := e.store.Space(conv)
	if err != nil {
		e.t.Fatal(err)
	}
	defer sp.Close()
	return e.runner.Run(context.Background(), runtime.Request{Source: src, Space: sp, Timeout: timeout})
}

var writeOpts = files.WriteOptions{}

// transpiles is how many times r's TypeScript step ran.
func transpiles(r *runtime.Runner) int64 {
	in, _ := r.Interpreter(runtime.TypeScript)
	return in.(*interpreter).Transpiles()
}
