// Package sandbox runs scripts (package runtime) and file decoders
// (package formats) in worker processes: copies of the convfiles binary,
// started as "convfiles worker", confined by kernel limits (rlimits,
// Landlock, a lower CPU priority) and killed when a job outlives its
// deadline or its request. The server keeps the files: a worker asks for
// each file operation over its socket, and receives open descriptors
// rather than paths, so it needs no access to the data folder at all.
//
// Pool shares the workers among credentials (fair.go): each API key with
// its tokens runs at most its share at once and waits in a bounded queue
// of its own, so one tenant never holds every worker.
//
// sandbox speaks no HTTP and knows no SQL: the doors (routes, routes/mcp,
// the CLI) call it through runtime.Executor and formats.Caller.
//
// sandbox must never import HTTP, SQL or a storage implementation: the
// process that owns the store serves the workers' file operations.
package sandbox
