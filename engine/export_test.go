package engine

// SetGroupCommit sets how many concurrent changes one index commit of s
// may carry: 1 turns group commit off, for a benchmark's baseline.
func SetGroupCommit(s *Store, most int) { s.commits.max = most }
