//go:build !linux

package sandbox

import "time"

// processCPU cannot read another process's CPU time here: format
// operations are bounded by their wall-clock time alone.
func processCPU(pid int) (time.Duration, bool) { return 0, false }
