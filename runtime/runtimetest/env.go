// Package runtimetest runs scripts in tests: a Runner over a real Store
// in a temporary folder, and the calls every language's tests make of it.
// It is for tests only, and must never import a door or a language's
// package (the test that uses it links the languages it runs).
package runtimetest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/runtime"
)

// Env is a Runner over a real Store in a temporary folder.
type Env struct {
	T      *testing.T
	Store  *engine.Store
	Runner *runtime.Runner
}

// NewEnv is an Env with cfg; links point at a local server unless cfg
// says otherwise.
func NewEnv(t *testing.T, cfg runtime.Config) *Env {
	t.Helper()
	store, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return With(t, store, cfg)
}

// With is an Env over store, which the caller closes.
func With(t *testing.T, store *engine.Store, cfg runtime.Config) *Env {
	if cfg.Link == nil {
		cfg.Link = func(conv, name string) string { return "http://127.0.0.1:8080/files/" + conv + "/" + name }
	}
	return &Env{T: t, Store: store, Runner: runtime.New(cfg)}
}

// Run executes src in conversation conv and returns the report and error.
func (e *Env) Run(conv, src string) (*runtime.Report, error) {
	e.T.Helper()
	return e.RunWithTimeout(conv, src, 0)
}

// RunWithTimeout is Run with a per-request timeout (0: the Runner's).
func (e *Env) RunWithTimeout(conv, src string, timeout time.Duration) (*runtime.Report, error) {
	e.T.Helper()
	sp, err := e.Store.Space(conv)
	if err != nil {
		e.T.Fatal(err)
	}
	defer sp.Close()
	return e.Runner.Run(context.Background(), runtime.Request{Source: src, Space: sp, Timeout: timeout})
}

// OK runs src, fails the test on a script error, and decodes the result
// into result when it is not nil.
func (e *Env) OK(conv, src string, result any) *runtime.Report {
	e.T.Helper()
	rep, err := e.Run(conv, src)
	if err != nil {
		e.T.Fatalf("script failed: %v\nlogs: %v", err, rep.Logs)
	}
	if result != nil {
		if err := json.Unmarshal(rep.Result, result); err != nil {
			e.T.Fatalf("result %s: %v", rep.Result, err)
		}
	}
	return rep
}
