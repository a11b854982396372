package sandbox

import (
	"log/slog"
	"time"

	"convfiles/internal/links"
	"convfiles/runtime"
)

// Config configures a Pool. Zero fields take the defaults below.
type Config struct {
	// Runtime holds the limits of script runs (its timeout, memory,
	// logs...). ReadRoots and Downloader serve workers from the server;
	// Link is not used (workers build links from LinkBase).
	Runtime runtime.Config
	// LinkBase is the public URL file links start with.
	LinkBase string
	// LinkSigner, when set, signs file links; a run's worker gets the key
	// of its conversation's links only.
	LinkSigner *links.Signer
	// Workers bounds the workers alive at once, busy or idle (default
	// four per CPU); a run waits for one when all are busy.
	Workers int
	// PerCredential is how many jobs one credential's share (an API key
	// and its tokens) may run at once (default: half the workers, at
	// least one), so no tenant holds every worker; the local user's
	// share is the whole pool.
	PerCredential int
	// QueuePerCredential is how many more of a share's jobs may wait
	// (default: twice the workers); past it a job is refused at once with
	// ErrBusy.
	QueuePerCredential int
	// Warm is how many idle workers are started ahead of need (default
	// one per CPU).
	Warm int
	// Command starts a worker (default: this executable, "worker").
	Command []string
	// DataBytes is each worker's RLIMIT_DATA, the memory it may really
	// use: heap, stacks, private mappings (default: the memory limit plus
	// 384 MiB for the program and the runtime).
	DataBytes int64
	// AddressSpace is each worker's RLIMIT_AS, an outer bound on what it
	// may map (default: the memory limit plus 4 GiB: an idle Go process
	// reserves 1.6 GB of address space it never uses).
	AddressSpace int64
	// TempBytes is RLIMIT_FSIZE, the largest temporary file a worker may
	// write (spreadsheet decoders spill to disk; default 256 MiB).
	TempBytes int64
	// CPULifetime is a worker's total CPU seconds before it is retired
	// (RLIMIT_CPU's hard limit; default 600).
	CPULifetime uint64
	// Grace is how long past its timeout a job may take before its worker
	// is killed (default 500 ms).
	Grace time.Duration
	// FormatTimeout bounds the CPU time of a format operation (a
	// preview, an MCP tool; default 30 s): the work a file makes its
	// decoder do, which a busy machine does not change. Where a process's
	// CPU time cannot be read (not Linux) it bounds the wall-clock time.
	FormatTimeout time.Duration
	// FormatWall bounds a format operation's wall-clock time (default 5
	// minutes): past it the server is too busy, not the file at fault.
	// A request's own deadline, when shorter, comes first.
	FormatWall time.Duration
	Logger     *slog.Logger
}

// Defaults of Config.
const (
	DefaultGrace         = 500 * time.Millisecond
	DefaultFormatTimeout = 30 * time.Second
	DefaultFormatWall    = 5 * time.Minute
	DefaultTempBytes     = 256 << 20
	DefaultCPULifetime   = 600
	dataReserve          = 384 << 20
	addressReserve       = 4 << 30
	maxRunsPerWorker     = 100000
)
