package runtime

import "sync"

// How a run changed a file, for the final-state report of seed 001.
const (
	opWrite  = "write"  // replaced or created as a whole
	opAppend = "append" // only appended to
	opRemove = "remove" // gone at the end of the run
)

// touchLog remembers which names a run wrote, appended to or removed, in
// first-touch order. The report gives each one's final state: a file that
// exists is "write" with its size ("append" when the run only appended to
// it), a file that does not is "remove". Intermediate steps are not
// reported.
type touchLog struct {
	mu    sync.Mutex
	names []string
	wrote map[string]bool // false: only appended (or only removed)
}

func (t *touchLog) touch(name, op string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.wrote == nil {
		t.wrote = map[string]bool{}
	}
	w, seen := t.wrote[name]
	if !seen {
		t.names = append(t.names, name)
	}
	t.wrote[name] = w || op == opWrite || op == opRemove
}

func (t *touchLog) final(s *session) []Touched {
	t.mu.Lock()
	names := append([]string(nil), t.names...)
	wrote := make(map[string]bool, len(t.wrote))
	for k, v := range t.wrote {
		wrote[k] = v
	}
	t.mu.Unlock()
	out := make([]Touched, 0, len(names))
	for _, n := range names {
		info, err := s.space.Stat(n)
		if err != nil {
			out = append(out, Touched{Name: n, Op: opRemove})
			continue
		}
		op := opWrite
		if !wrote[n] {
			op = opAppend
		}
		out = append(out, Touched{Name: n, Op: op, Bytes: info.Size, URL: s.link(n)})
	}
	return out
}
