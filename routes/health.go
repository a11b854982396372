package routes

import (
	"net/http"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// handleHealth is GET /healthz: convfiles' own health answer, with the
// sandbox's workers and the MCP sessions.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"status": "ok", "version": s.version}
	if s.health != nil {
		for k, v := range s.health() {
			out[k] = v
		}
	}
	writeResult(w, out)
}

// restexecHealth is the answer of GET /health, as the Workspace
// Save/Execute API's clients read it (seed 002, restexec): not wrapped in
// an envelope.
type restexecHealth struct {
	Status string `json:"status"`
	// Uptime is seconds since the server started.
	Uptime float64 `json:"uptime"`
	// ActiveProcesses is how many scripts run now.
	ActiveProcesses int64       `json:"activeProcesses"`
	MemoryUsage     memoryUsage `json:"memoryUsage"`
	Version         string      `json:"version"`
}

// memoryUsage is the server process's memory in bytes, named as Deno
// names it: rss is what the process holds in RAM; heapTotal what the Go
// heap has mapped, heapUsed what its live and not yet collected objects
// take; external the rest the runtime mapped (stacks, its own metadata).
type memoryUsage struct {
	RSS       uint64 `json:"rss"`
	HeapTotal uint64 `json:"heapTotal"`
	HeapUsed  uint64 `json:"heapUsed"`
	External  uint64 `json:"external"`
}

// handleRestexecHealth is GET /health.
func (s *Server) handleRestexecHealth(w http.ResponseWriter, r *http.Request) {
	out := restexecHealth{Status: "ok", Uptime: time.Since(s.started).Seconds(), ActiveProcesses: s.activeRuns(),
		MemoryUsage: readMemoryUsage(), Version: s.version}
	writeJSON(w, http.StatusOK, out)
}

var memorySamples = []string{
	"/memory/classes/total:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
}

func readMemoryUsage() memoryUsage {
	samples := make([]metrics.Sample, len(memorySamples))
	for i, name := range memorySamples {
		samples[i].Name = name
	}
	metrics.Read(samples)
	v := make([]uint64, len(samples))
	for i, sm := range samples {
		if sm.Value.Kind() == metrics.KindUint64 {
			v[i] = sm.Value.Uint64()
		}
	}
	total, objects, unused, free := v[0], v[1], v[2], v[3]
	heap := objects + unused + free
	m := memoryUsage{RSS: residentBytes(), HeapTotal: heap, HeapUsed: objects}
	if total > heap {
		m.External = total - heap
	}
	if m.RSS == 0 {
		m.RSS = total
	}
	return m
}

// residentBytes is the process's resident set from /proc (Linux); 0
// where there is none.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(fields[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
