//go:build unix && !linux

package sandbox

// confine applies a worker's kernel limits. Landlock is Linux's: on
// other systems a worker is bounded by its limits alone, and can open
// what the server's user can; the status says so.
func confine(cfg *workerConfig) string {
	setLimits(cfg)
	return "rlimits; no Landlock on this system: workers can read what the server's user can"
}
