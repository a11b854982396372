package main

import (
	"os"
	"runtime/debug"

	"convfiles/runtime"
)

// tuneGC sets how a serving process collects garbage. A server allocates
// much short-lived memory (a fresh VM per script, the MCP SDK's JSON
// decoders), so it collects at percent growth rather than 100%
// (BENCHMARKS.md measures both servers' gains). Garbage then waits longer,
// and the runtime's memory guard, which reads the heap, would count it as
// memory scripts hold and stop them for it; so the collector also gets a
// soft memory limit at the scripts' limit, and collects harder as the
// heap nears it. An operator's GOGC or GOMEMLIMIT wins.
func tuneGC(cfg Config, percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit := cfg.Runtime.MemoryLimit
		if limit <= 0 {
			limit = runtime.DefaultMemoryLimit
		}
		debug.SetMemoryLimit(limit)
	}
}
