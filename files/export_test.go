package files

// SetGroupCommit sets how many concurrent changes one index commit of s
// may carry: 1 turns group commit off, for a benchmark's baseline.
func SetGroupCommit(s *Store, most int) { s.commits.max = most }

// WaitReaped returns once the pruned versions of s's commits so far are
// removed from disk.
func WaitReaped(s *Store) {
	if s.reaper != nil {
		s.reaper.wait()
	}
}
