package engine

import "sync"

// nameLocks serializes, within one process, the commits of writers that
// must not lose each other's changes to one file (appends, line and byte
// edits): the second waits for the first, then rebuilds its change over
// the first one's result. Other processes are kept in order by the index
// transaction instead (see txn); this lock only spares in-process writers
// a round of wasted work. Entries live while someone holds or waits.
type nameLocks struct {
	mu sync.Mutex
	m  map[string]*nameLock
}

type nameLock struct {
	mu    sync.Mutex
	users int
}

// lock takes the lock of key and returns how to let it go.
func (n *nameLocks) lock(key string) (unlock func()) {
	n.mu.Lock()
	if n.m == nil {
		n.m = map[string]*nameLock{}
	}
	l := n.m[key]
	if l == nil {
		l = &nameLock{}
		n.m[key] = l
	}
	l.users++
	n.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		n.mu.Lock()
		if l.users--; l.users == 0 {
			delete(n.m, key)
		}
		n.mu.Unlock()
	}
}
