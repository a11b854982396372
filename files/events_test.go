package files

import "testing"

// TestBusNeverBlocksAndCountsDrops: a subscriber that does not read loses
// events past its buffer, and says how many, while publishing goes on.
func TestBusNeverBlocksAndCountsDrops(t *testing.T) {
	bus := NewBus()
	slow := bus.Subscribe(2)
	fast := bus.Subscribe(10)
	for i := 0; i < 5; i++ {
		bus.Publish(Event{Type: FileCreated, Name: "f"})
	}
	if slow.Dropped() != 3 || fast.Dropped() != 0 || len(slow.C) != 2 || len(fast.C) != 5 {
		t.Fatalf("slow dropped %d (has %d), fast dropped %d (has %d)", slow.Dropped(), len(slow.C), fast.Dropped(), len(fast.C))
	}
	slow.Close()
	slow.Close() // closing twice is harmless
	bus.Publish(Event{Type: FileDeleted})
	if _, open := <-drain(slow.C); open {
		t.Fatal("a closed subscription still receives")
	}
	var nilBus *Bus
	nilBus.Publish(Event{}) // a Space without a bus publishes nowhere
}

func drain(c <-chan Event) <-chan Event {
	for range c {
	}
	return c
}
