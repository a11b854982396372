package runtime

import (
	"context"
	"sync"
	"time"

	"convfiles/files"
)

// TouchLog remembers which names a run wrote, appended to or removed, in
// first-touch order. The report gives each one's final state: a file that
// exists is "write" with its size ("append" when the run only appended to
// it), a file that does not is "remove". Intermediate steps are not
// reported. The sandbox keeps one too, for a run whose worker died. It is
// safe for concurrent use.
type TouchLog struct {
	mu    sync.Mutex
	names []string
	wrote map[string]bool // false: only appended (or only removed)
}

// Touch records that the run changed name by op.
func (t *TouchLog) Touch(name string, op files.Touch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.wrote == nil {
		t.wrote = map[string]bool{}
	}
	w, seen := t.wrote[name]
	if !seen {
		t.names = append(t.names, name)
	}
	t.wrote[name] = w || op == files.Wrote || op == files.Removed
}

// Final is the final state of every name touched, read from sp; link
// gives a file's URL.
// finalWait bounds the look at what a run touched: it is taken after the
// run's own context may have ended (a timeout, a cancelled request).
const finalWait = 10 * time.Second

func (t *TouchLog) Final(ctx context.Context, sp files.Ops, link func(name string) string) []Touched {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWait)
	defer cancel()
	t.mu.Lock()
	names := append([]string(nil), t.names...)
	wrote := make(map[string]bool, len(t.wrote))
	for k, v := range t.wrote {
		wrote[k] = v
	}
	t.mu.Unlock()
	out := make([]Touched, 0, len(names))
	for _, n := range names {
		info, err := sp.Stat(ctx, n)
		if err != nil {
			out = append(out, Touched{Name: n, Op: files.Removed.String()})
			continue
		}
		op := files.Wrote
		if !wrote[n] {
			op = files.Appended
		}
		out = append(out, Touched{Name: n, Op: op.String(), Bytes: info.Size, URL: link(n)})
	}
	return out
}
