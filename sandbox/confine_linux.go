package sandbox

import (
	"fmt"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// confine applies a worker's kernel limits, then Landlock: no file may
// be opened except in its own temporary folder, no TCP connection made
// or accepted, no program executed (with no_new_privs, which Landlock
// sets). The files of a run arrive as descriptors the server opened, so
// the worker needs no path at all. It returns a line saying what holds.
func confine(cfg *workerConfig) string {
	// Landlock first: it starts threads (to restrict them all), which the
	// address-space limit would then have to make room for.
	status := landlockSelf(cfg.TempDir)
	nice := lowerPriority()
	setLimits(cfg)
	return "rlimits; " + nice + "; " + status
}

// workerNice is the CPU priority of the workers: below the server's, so
// that a pool of busy scripts never slows the server's own answers.
const workerNice = 10

// lowerPriority sets every thread of this process to workerNice (Linux
// keeps a priority per thread; threads made later inherit it).
func lowerPriority() string {
	if _, _, errno := psx.Syscall3(syscall.SYS_SETPRIORITY, syscall.PRIO_PROCESS, 0, workerNice); errno != 0 {
		return "priority unchanged (" + errno.Error() + ")"
	}
	return fmt.Sprintf("nice %d", workerNice)
}

// landlockSelf restricts this process and every thread of it to its
// temporary folder, with no network and nothing to execute.
func landlockSelf(tempDir string) string {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return fmt.Sprintf("landlock unavailable (%v)", err)
	}
	var rules []landlock.Rule
	if tempDir != "" {
		rules = append(rules, landlock.RWDirs(tempDir))
	}
	if err := landlock.V7.BestEffort().Restrict(rules...); err != nil {
		return "landlock failed: " + err.Error()
	}
	return fmt.Sprintf("landlock ABI %d", abi)
}
