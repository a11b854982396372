package files

import (
	"sync"
	"time"
)

// EventType names a change to a file, with the names seed 004 uses on its
// server-sent events.
type EventType string

// The event types.
const (
	FileCreated  EventType = "file:created"
	FileModified EventType = "file:modified"
	FileDeleted  EventType = "file:deleted"
	// ConversationDeleted reports that a conversation and all its files
	// and versions were deleted.
	ConversationDeleted EventType = "conversation:deleted"
)

// Event reports one change to one file. Seq orders the events of a Store
// with an index (1, 2, …, never reused); it is 0 without one.
type Event struct {
	Seq          int64     `json:"seq,omitempty"`
	Type         EventType `json:"type"`
	Conversation string    `json:"conversation"`
	ID           string    `json:"id,omitempty"`
	Name         string    `json:"name"`
	Size         int64     `json:"size"`
	MIME         string    `json:"mime_type,omitempty"`
	Session      string    `json:"source_session_id,omitempty"`
	// RenamedFrom is the old name when a modification is a rename.
	RenamedFrom string    `json:"renamed_from,omitempty"`
	Time        time.Time `json:"time"`
}

// Bus is the in-process event bus every change is published on. Publishing
// never blocks: a subscriber that falls behind by more than its buffer loses
// events and learns how many from Subscription.Dropped.
type Bus struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// NewBus returns an empty Bus.
func NewBus() *Bus { return &Bus{subs: map[*Subscription]struct{}{}} }

// Subscription is one reader of a Bus.
type Subscription struct {
	C       <-chan Event
	c       chan Event
	bus     *Bus
	mu      sync.Mutex
	dropped int
}

// Subscribe returns a Subscription whose channel buffers up to buffer events.
func (b *Bus) Subscribe(buffer int) *Subscription {
	if buffer < 1 {
		buffer = 1
	}
	c := make(chan Event, buffer)
	s := &Subscription{C: c, c: c, bus: b}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Close stops delivery and closes the channel.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	if _, ok := s.bus.subs[s]; ok {
		delete(s.bus.subs, s)
		close(s.c)
	}
	s.bus.mu.Unlock()
}

// Dropped returns how many events were lost because the reader fell behind.
func (s *Subscription) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Publish delivers ev to every subscriber that has room for it.
func (b *Bus) Publish(ev Event) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		select {
		case s.c <- ev:
		default:
			s.mu.Lock()
			s.dropped++
			s.mu.Unlock()
		}
	}
}
