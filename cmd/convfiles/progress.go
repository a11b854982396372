package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"convfiles/files"
)

// progressBar shows how far a long copy has come: on a terminal a bar
// redrawn in place at most ten times a second, elsewhere (a log, a pipe)
// one line every ten seconds. Its methods are safe for concurrent use.
type progressBar struct {
	w        io.Writer
	label    string
	total    int64
	items    int
	tty      bool
	interval time.Duration

	mu        sync.Mutex
	done      int64
	itemsDone int
	start     time.Time
	drawn     time.Time
}

func newProgressBar(w io.Writer, label string, total int64, items int) *progressBar {
	b := &progressBar{w: w, label: label, total: total, items: items, tty: isTerminal(w),
		interval: 10 * time.Second, start: time.Now()}
	if b.tty {
		b.interval = 100 * time.Millisecond
	}
	b.draw(b.start)
	return b
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// add counts n more bytes done.
func (b *progressBar) add(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	if now := time.Now(); now.Sub(b.drawn) >= b.interval {
		b.draw(now)
	}
}

// itemDone counts one more item (a conversation) done.
func (b *progressBar) itemDone() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.itemsDone++
}

// finish draws the final state and ends the line.
func (b *progressBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw(time.Now())
	if b.tty {
		fmt.Fprintln(b.w)
	}
}

// draw writes the current state; the caller holds mu.
func (b *progressBar) draw(now time.Time) {
	b.drawn = now
	frac := 1.0
	if b.total > 0 {
		frac = min(float64(b.done)/float64(b.total), 1)
	}
	const width = 24
	filled := int(frac * width)
	line := fmt.Sprintf("%s [%s%s] %3.0f%%  %s of %s  %d/%d conversations", b.label,
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), frac*100,
		files.FormatBytes(b.done), files.FormatBytes(b.total), b.itemsDone, b.items)
	if secs := now.Sub(b.start).Seconds(); secs >= 1 {
		line += fmt.Sprintf("  %s/s", files.FormatBytes(int64(float64(b.done)/secs)))
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\033[K", line)
		return
	}
	fmt.Fprintln(b.w, line)
}
