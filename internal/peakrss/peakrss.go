// Package peakrss reads and resets the peak resident memory of this
// process (Linux's VmHWM), for benchmarks whose target is a memory bound.
//
// It must never import another convfiles package.
package peakrss

import (
	"os"
	"strconv"
	"strings"
)

// Reset sets the kernel's record of this process's peak resident memory
// to its current size (clear_refs 5). It does nothing where that is not
// supported.
func Reset() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// Bytes returns the peak resident memory since the last Reset, or since
// the process started; 0 where it is not known.
func Bytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// MiB returns n bytes in MiB.
func MiB(n int64) float64 { return float64(n) / (1 << 20) }
