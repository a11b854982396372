package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// LogBook collects print and console output up to a line and a byte cap.
// Past the cap it only counts, so a million log calls stay cheap; the report
// ends with a note saying how much was dropped.
type LogBook struct {
	mu       sync.Mutex
	lines    []string
	bytes    int
	maxLines int
	maxBytes int
	dropped  int
	// lastOut is the last line of standard output (console.log, info,
	// debug, print), kept whole even past the caps, up to MaxResultBytes:
	// a script that prints its result as JSON has it as its result.
	lastOut string
	maxOut  int
	// out is all of standard output, up to maxOut bytes: the Workspace
	// Execute API answers it for a script that printed text.
	out strings.Builder
}

func (l *LogBook) full() bool { return len(l.lines) >= l.maxLines || l.bytes >= l.maxBytes }

// Add logs a line of n parts joined by spaces, each part(i) made only
// while the line has room: a console.log of a huge value costs what is
// kept. prefix is "" for standard output (console.log, print), whose last
// line may be the run's result (restexec), and "[error] " and the like
// for the other streams.
func (l *LogBook) Add(prefix string, n int, part func(i int) string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.full() && prefix != "" {
		l.dropped++
		return
	}
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(part(i))
		if b.Len() > max(l.maxBytes, l.maxOut) {
			break
		}
	}
	if prefix == "" {
		l.noteOut(b.String())
	}
	if l.full() {
		l.dropped++
		return
	}
	l.keep(b.String())
}

// noteOut remembers the last line of a line of standard output; l.mu is
// held.
func (l *LogBook) noteOut(s string) {
	if l.out.Len() < l.maxOut {
		l.out.WriteString(s[:min(len(s), l.maxOut-l.out.Len())])
		l.out.WriteByte('\n')
	}
	if i := strings.LastIndexByte(strings.TrimRight(s, "\n"), '\n'); i >= 0 {
		s = s[i+1:]
	}
	l.lastOut = ""
	if len(s) <= l.maxOut {
		l.lastOut = s
	}
}

// printedResult is the last line of standard output as JSON, when it is
// JSON (restexec's rule for a script that prints its result); nil if not.
func (l *LogBook) printedResult() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := strings.TrimSpace(l.lastOut)
	if line == "" || !json.Valid([]byte(line)) {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(line)) != nil {
		return nil
	}
	return b.Bytes()
}

// printedOutput is all the standard output, trimmed.
func (l *LogBook) printedOutput() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(l.out.String())
}

// AddLine adds one line that a script printed (Lua's print).
func (l *LogBook) AddLine(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.noteOut(s)
	if l.full() {
		l.dropped++
		return
	}
	l.keep(s)
}

// keep stores a line, cut to the bytes left; l.mu is held.
func (l *LogBook) keep(s string) {
	if room := l.maxBytes - l.bytes; len(s) > room {
		s = s[:room] + "…"
	}
	l.lines = append(l.lines, s)
	l.bytes += len(s)
}

// note adds a line from convfiles itself, past the caps, so it is never
// dropped.
func (l *LogBook) note(line string) {
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
}

// snapshot returns the lines, with a closing note when some were dropped.
func (l *LogBook) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]string(nil), l.lines...)
	if l.dropped > 0 {
		out = append(out, fmt.Sprintf("[convfiles: %d more log lines dropped; logs are capped at %d lines and %d bytes: write large output to a file]", l.dropped, l.maxLines, l.maxBytes))
	}
	if out == nil {
		out = []string{}
	}
	return out
}
