package engine

import (
	"os"
	"sync"
	"syscall"
	"time"
)

// rootCache keeps conversation folders open between requests: opening an
// os.Root walks the path each time, and a busy conversation is opened many
// times a second. Entries are shared and reference-counted. An entry is
// dropped when its conversation is deleted here, and revalidated at most
// once a second otherwise, so a folder deleted by another process
// (convfiles cleanup) is noticed and the new one opened. In between, a
// deleted folder loses nothing: Linux refuses to create files in it, and
// reads find nothing.
type rootCache struct {
	mu  sync.Mutex
	m   map[string]*sharedRoot
	max int
	now func() time.Time
}

type sharedRoot struct {
	root    *os.Root
	refs    int
	stale   bool
	checked time.Time // when the folder was last seen linked
}

// revalidateEvery is how long a cached folder is trusted without a check.
const revalidateEvery = time.Second

func newRootCache(max int, now func() time.Time) *rootCache {
	return &rootCache{m: map[string]*sharedRoot{}, max: max, now: now}
}

// acquire returns the open folder of id, opening it with open when it is
// not cached or no longer valid. Every acquire needs a release.
func (c *rootCache) acquire(id string, open func() (*os.Root, error)) (*sharedRoot, error) {
	c.mu.Lock()
	if e, ok := c.m[id]; ok {
		now := c.now()
		fresh := now.Sub(e.checked) < revalidateEvery
		if !fresh && stillLinked(e.root) {
			e.checked, fresh = now, true
		}
		if fresh {
			e.refs++
			c.mu.Unlock()
			return e, nil
		}
		c.dropLocked(id, e)
	}
	c.mu.Unlock()
	r, err := open()
	if err != nil || r == nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok { // another request opened it meanwhile
		r.Close()
		e.refs++
		return e, nil
	}
	if len(c.m) >= c.max {
		for k, e := range c.m {
			if e.refs == 0 {
				c.dropLocked(k, e)
				break
			}
		}
	}
	e := &sharedRoot{root: r, refs: 1, checked: c.now()}
	c.m[id] = e
	return e, nil
}

// release gives back an entry from acquire.
func (c *rootCache) release(e *sharedRoot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.refs--
	if e.refs == 0 && e.stale {
		e.root.Close()
	}
}

// invalidate forgets id's folder; users still holding it finish with it.
func (c *rootCache) invalidate(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok {
		c.dropLocked(id, e)
	}
}

func (c *rootCache) dropLocked(id string, e *sharedRoot) {
	delete(c.m, id)
	e.stale = true
	if e.refs == 0 {
		e.root.Close()
	}
}

// closeAll closes every idle entry (Store.Close).
func (c *rootCache) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		c.dropLocked(k, e)
	}
}

// stillLinked reports whether an open folder still has a name: a deleted
// folder has no links left.
func stillLinked(r *os.Root) bool {
	fi, err := r.Stat(".")
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 0
}
