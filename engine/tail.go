package engine

import (
	"bytes"
	"context"
	"io"

	"convfiles/files"
)

// tailChunk is the first span ReadTail reads, back from the end.
const tailChunk = 64 << 10

// ReadTail returns the last n lines of the file name, each with its "\n"
// (the file's last line may have none), and how many lines that is (fewer
// when the file has fewer). It reads backward from the end, so it costs
// the bytes of those lines, not of the file: the tail of a log of any
// size. It returns at most maxBytes (files.MaxReadAt when ≤ 0): only
// whole lines, but for the last line alone when it is longer, of which
// it returns the end; truncated says the bound left lines out.
func (sp *Space) ReadTail(ctx context.Context, name string, n int, maxBytes int64) (content string, lines int, truncated bool, err error) {
	if n < 1 {
		return "", 0, false, files.E("read_tail", files.KindInvalid, name, "lines must be 1 or more", nil)
	}
	if maxBytes <= 0 || maxBytes > files.MaxReadAt {
		maxBytes = files.MaxReadAt
	}
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return "", 0, false, err
	}
	defer f.Close()
	tail, cut, err := readTail(ctx, f, info.Size, n, maxBytes)
	if err != nil {
		return "", 0, false, relabel("read_tail", err)
	}
	if int64(len(tail)) > maxBytes {
		return string(tail[int64(len(tail))-maxBytes:]), 1, true, nil
	}
	return string(tail), countLines(tail), cut, nil
}

// readTail reads the end of r (size bytes) in spans that double, until
// a span holds the last n lines, or the start, or more than maxBytes:
// then it keeps only the whole lines that fit, or the last line alone
// when none does. It reads at most twice the bytes it returns.
func readTail(ctx context.Context, r io.ReaderAt, size int64, n int, maxBytes int64) (tail []byte, cut bool, err error) {
	for span := int64(tailChunk); ; span *= 2 {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		start := max(0, size-span)
		tail = make([]byte, size-start)
		if _, err := r.ReadAt(tail, start); err != nil && err != io.EOF {
			return nil, false, err
		}
		// The final "\n" ends the last line; it does not start another.
		body := bytes.TrimSuffix(tail, []byte{'\n'})
		if at := lineStart(body, n); at >= 0 {
			tail, cut = fitWholeLines(tail[at:], maxBytes)
			return tail, cut, nil
		}
		if start == 0 || span > maxBytes {
			tail, cut = fitWholeLines(tail, maxBytes)
			return tail, cut || start > 0, nil
		}
	}
}

// lineStart is where the last n lines of b begin, or -1 when b holds
// fewer than n line ends before them.
func lineStart(b []byte, n int) int {
	for i := len(b); ; {
		j := bytes.LastIndexByte(b[:i], '\n')
		if j < 0 {
			return -1
		}
		if n--; n == 0 {
			return j + 1
		}
		i = j
	}
}

// fitWholeLines drops whole lines from the front of b until it fits in
// maxBytes; a last line longer than maxBytes is left whole, for the
// caller to cut.
func fitWholeLines(b []byte, maxBytes int64) (fit []byte, cut bool) {
	for int64(len(b)) > maxBytes {
		i := bytes.IndexByte(b, '\n')
		if i < 0 || i == len(b)-1 {
			return b, true
		}
		b, cut = b[i+1:], true
	}
	return b, cut
}

// countLines counts the lines of b: its line ends, and a last line
// without one.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
