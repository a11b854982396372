package routes

import (
	"context"
	"testing"

	"convfiles/runtime"
)

// busyRunner answers every run as a pool whose credential's share and
// queue are full.
type busyRunner struct{ runtime.Executor }

func (busyRunner) Run(context.Context, runtime.Request) (*runtime.Report, error) {
	se := &runtime.ScriptError{Type: runtime.TypeBusy, Limit: "workers", Message: "this credential's share of the workers is full"}
	return &runtime.Report{Result: []byte("null"), Error: se}, se
}

// TestLimitsAndBusyWorkersHaveTheirOwnAnswers: a script past a limit is
// 422 LimitError naming the limit, not the 500 of a script that threw;
// a run refused for its credential's full share is 429 BusyError with
// Retry-After, which a client retries.
func TestLimitsAndBusyWorkersHaveTheirOwnAnswers(t *testing.T) {
	e := newCodeEnv(t, func(c *Config) {
		c.Runner = runtime.New(runtime.Config{MaxResultBytes: 64})
	})
	status, _, out := e.call("POST", "/execute", map[string]any{"code": `"x".repeat(1000)`})
	if typ, _, d := errOf(out); status != 422 || typ != "LimitError" || d["limit"] != "result_size" {
		t.Fatalf("a result past its limit: %d %v", status, out)
	}
	status, _, out = e.call("POST", "/execute", map[string]any{"code": `throw new Error("mine")`})
	if typ, _, _ := errOf(out); status != 500 || typ != "ExecutionError" {
		t.Fatalf("a script that threw: %d %v", status, out)
	}

	busy := newCodeEnv(t, func(c *Config) { c.Runner = busyRunner{c.Runner} })
	status, hdr, out := busy.call("POST", "/execute", map[string]any{"code": "1"})
	if typ, _, _ := errOf(out); status != 429 || typ != "BusyError" || hdr.Get("Retry-After") == "" {
		t.Fatalf("a run refused for a full share: %d %v %v", status, hdr, out)
	}
}
