package lru

import "testing"

// TestLeastRecentlyUsedGoFirst: past the size or the count, the values
// used longest ago are dropped; a Get makes a value recent again.
func TestLeastRecentlyUsedGoFirst(t *testing.T) {
	c := New(10, 3, func(b []byte) int64 { return int64(len(b)) })
	c.Put("a", make([]byte, 4))
	c.Put("b", make([]byte, 4))
	c.Get("a") // a is now more recent than b
	c.Put("c", make([]byte, 4))
	if _, ok := c.Get("b"); ok {
		t.Fatal("b, the least recently used, is still kept past the size")
	}
	if _, ok := c.Get("a"); !ok || c.Used() != 8 {
		t.Fatalf("a kept %v, %d bytes held", ok, c.Used())
	}
	c.Put("d", nil)
	c.Put("e", nil)
	if _, ok := c.Get("c"); ok {
		t.Fatal("past 3 values, the oldest is still kept")
	}
	c.Drop("a")
	if _, ok := c.Get("a"); ok || c.Used() != 0 {
		t.Fatalf("after Drop: kept %v, %d bytes held", ok, c.Used())
	}
}
