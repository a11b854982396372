//go:build unix

package sandbox

import (
	"fmt"
	"syscall"
	"time"
)

// maxOpenFiles is a worker's RLIMIT_NOFILE: its socket, the files a run
// has open (64 io handles at most) and what the Go runtime needs.
const maxOpenFiles = 256

// setLimits applies a worker's kernel limits: no core dump, its open
// files, its address space and data, the size of a file it may write and
// its CPU time over its life.
func setLimits(cfg *workerConfig) {
	set := func(res int, cur, max uint64) {
		syscall.Setrlimit(res, &syscall.Rlimit{Cur: cur, Max: max})
	}
	set(syscall.RLIMIT_CORE, 0, 0)
	set(syscall.RLIMIT_NOFILE, maxOpenFiles, maxOpenFiles)
	// A -race build (tests only) cannot live under memory limits: its
	// detector maps terabytes of shadow memory.
	if cfg.AddressSpace > 0 && !raceDetector {
		set(syscall.RLIMIT_AS, uint64(cfg.AddressSpace), uint64(cfg.AddressSpace))
	}
	if cfg.DataBytes > 0 && !raceDetector {
		set(syscall.RLIMIT_DATA, uint64(cfg.DataBytes), uint64(cfg.DataBytes))
	}
	if cfg.TempBytes > 0 {
		set(syscall.RLIMIT_FSIZE, uint64(cfg.TempBytes), uint64(cfg.TempBytes))
	}
	if cfg.CPULifetime > 0 {
		set(syscall.RLIMIT_CPU, cfg.CPULifetime, cfg.CPULifetime)
	}
}

// cpuUsed is the CPU seconds this process has used.
func cpuUsed() uint64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return uint64(ru.Utime.Sec + ru.Stime.Sec)
}

// cpuSlack is how far ahead of need the soft CPU limit is moved, so that
// most runs cost one getrusage and no setrlimit.
const cpuSlack = 30

// cpuSoft is the soft RLIMIT_CPU last set, in seconds (0: none yet).
var cpuSoft uint64

// setCPULimit gives the next run its CPU time: the soft RLIMIT_CPU is
// kept at least the run's timeout and a second ahead of what the worker
// has used, and the kernel signals SIGXCPU past it (the worker then
// exits). It moves in steps of cpuSlack seconds, so a run may use up to
// that much more before the signal: the server's kill at the timeout is
// the tight bound, this one holds if the server could not act. The hard
// limit, set once, bounds the worker's whole life; past it the worker is
// retired.
func setCPULimit(timeout time.Duration) error {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	need := uint64(ru.Utime.Sec+ru.Stime.Sec+1) + uint64(timeout/time.Second) + 1
	if need <= cpuSoft {
		return nil
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CPU, &lim); err != nil {
		return err
	}
	if need > lim.Max {
		return fmt.Errorf("the worker has used its CPU time")
	}
	lim.Cur = min(need+cpuSlack, lim.Max)
	cpuSoft = lim.Cur
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &lim)
}
