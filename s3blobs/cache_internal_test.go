package s3blobs

import (
	"fmt"
	"testing"
)

// TestObjectCacheStaysWithinItsBound: the least recently used objects go
// first, the bytes held never pass the bound, and a dropped object is
// gone.
func TestObjectCacheStaysWithinItsBound(t *testing.T) {
	c := newObjectCache(10 << 10)
	for i := range 20 {
		c.put(fmt.Sprint(i), make([]byte, 1<<10))
		c.get("0") // kept in use
		if used := c.bytes.Used(); used > c.max {
			t.Fatalf("after %d puts the cache holds %d bytes, past its bound %d", i+1, used, c.max)
		}
	}
	if _, ok := c.get("0"); !ok {
		t.Fatal("the object used all along was evicted")
	}
	if _, ok := c.get("1"); ok {
		t.Fatal("the least recently used object is still held")
	}
	if _, ok := c.get("19"); !ok {
		t.Fatal("the newest object is not held")
	}
	c.drop("19")
	if _, ok := c.get("19"); ok || c.bytes.Used() != 9<<10 {
		t.Fatal("a dropped object is still held")
	}
	if c.holds(cachedObjectMax+1) || !c.holds(4<<10) || (*objectCache)(nil).holds(1) || newObjectCache(-1).holds(1) {
		t.Fatal("holds says the wrong thing about sizes, a nil cache or a disabled one")
	}
}
