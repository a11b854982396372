package engine

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"convfiles/files"
)

// lineStride is how many lines apart the checkpoints of a line index are:
// reading any line range seeks to the checkpoint before it and scans at
// most this many lines. A 1 GiB file of 500,000 lines needs 123 of them.
const lineStride = 4096

// lineIndex locates lines in one version of a file without reading it all:
// offsets[i] is the byte offset where line i*lineStride+1 starts.
type lineIndex struct {
	size    int64
	mtime   time.Time
	lines   int // lines in the file; a last line without "\n" counts
	offsets []int64
}

// lineIndexer builds a lineIndex from bytes fed in order.
type lineIndexer struct {
	offsets []int64
	lines   int   // complete lines seen
	pos     int64 // bytes seen
	last    byte
}

func newLineIndexer() *lineIndexer { return &lineIndexer{offsets: []int64{0}} }

func (ix *lineIndexer) Write(p []byte) (int, error) {
	base := ix.pos
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		ix.lines++
		if ix.lines%lineStride == 0 {
			ix.offsets = append(ix.offsets, base+int64(i))
		}
	}
	if len(p) > 0 {
		ix.last = p[len(p)-1]
	}
	ix.pos += int64(len(p))
	return len(p), nil
}

// count is the number of lines seen; a last line without "\n" counts.
func (ix *lineIndexer) count() int {
	if ix.pos > 0 && ix.last != '\n' {
		return ix.lines + 1
	}
	return ix.lines
}

func (ix *lineIndexer) index(size int64, mtime time.Time) *lineIndex {
	return &lineIndex{size: size, mtime: mtime, lines: ix.count(), offsets: ix.offsets}
}

// lineCache keeps the line indexes of recently read or written files,
// valid while a file's size and modification time are unchanged.
type lineCache struct {
	mu sync.Mutex
	m  map[string]*lineIndex
}

const lineCacheMax = 1024

func (c *lineCache) get(key string, info files.Info) *lineIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	ix := c.m[key]
	if ix != nil && ix.size == info.Size && ix.mtime.Equal(info.ModTime) {
		return ix
	}
	return nil
}

func (c *lineCache) put(key string, ix *lineIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*lineIndex{}
	}
	if len(c.m) >= lineCacheMax {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[key] = ix
}

// lines returns the line index of an open file, from the cache or by one
// pass over the file.
func (sp *Space) lines(f io.ReaderAt, info files.Info) (*lineIndex, error) {
	key := sp.hostDir + "\x00" + info.Name
	if ix := sp.lineCache.get(key, info); ix != nil {
		return ix, nil
	}
	b := newLineIndexer()
	if _, err := io.Copy(b, io.NewSectionReader(f, 0, info.Size)); err != nil {
		return nil, classify("read", info.Name, err)
	}
	ix := b.index(info.Size, info.ModTime)
	sp.lineCache.put(key, ix)
	return ix, nil
}

// ReadLines returns the lines q asks for of the file name, reading only
// around them. Lines past the end give an empty Content.
func (sp *Space) ReadLines(ctx context.Context, name string, q files.LineQuery) (files.LineRange, error) {
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return files.LineRange{}, err
	}
	defer f.Close()
	ix, err := sp.lines(f, info)
	if err != nil {
		return files.LineRange{}, err
	}
	start, end, max := q.Start, q.End, q.MaxBytes
	if max <= 0 || max > files.MaxReadAt {
		max = files.MaxReadAt
	}
	if start < 1 {
		start = 1
	}
	if end <= 0 || end > ix.lines {
		end = ix.lines
	}
	out := files.LineRange{TotalLines: ix.lines}
	if start > end {
		return out, nil
	}
	cp := (start - 1) / lineStride
	line := cp*lineStride + 1
	pos := ix.offsets[cp]
	r := lineReader(io.NewSectionReader(f, pos, info.Size-pos), info.Size-pos)
	var b bytes.Buffer
	for ; line <= end; line++ {
		before := b.Len() // what the range held before this line
		for {
			text, err := r.ReadSlice('\n')
			if line >= start && int64(b.Len()+len(text)) > max {
				out.Truncated = true
				if before > 0 { // end the range before this line
					b.Truncate(before)
					out.NextLine = line
				} else { // one line longer than the cap: cut it
					keep := utf8Prefix(text, int(max)-b.Len())
					b.Write(keep)
					out.NextOffset = pos + int64(len(keep))
				}
				out.Content = b.String()
				return out, nil
			}
			pos += int64(len(text))
			if line >= start {
				b.Write(text)
			}
			if err == io.EOF {
				break
			}
			if err != nil && err != bufio.ErrBufferFull {
				return files.LineRange{}, classify("read", info.Name, err)
			}
			if err == nil {
				break
			}
		}
	}
	out.Content = b.String()
	return out, nil
}

// utf8Prefix returns the longest prefix of p of at most n bytes that does
// not end inside a UTF-8 sequence.
func utf8Prefix(p []byte, n int) []byte {
	if n >= len(p) {
		return p
	}
	p = p[:max(n, 0)]
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return p[:i]
			}
			break
		}
	}
	return p
}

// LineCount returns how many lines the file name has.
func (sp *Space) LineCount(ctx context.Context, name string) (int, error) {
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	ix, err := sp.lines(f, info)
	if err != nil {
		return 0, err
	}
	return ix.lines, nil
}

// lineReader buffers the n bytes r holds for reading line by line.
func lineReader(r io.Reader, n int64) *bufio.Reader {
	return bufio.NewReaderSize(r, bufferFor(n))
}

// bufferFor sizes a buffer for streaming n bytes: 64 KiB for a large file,
// no more than the file for a small one, which is the common case of a
// tool call and should not allocate 64 KiB each time.
func bufferFor(n int64) int {
	return int(min(max(n+1, 512), 64<<10))
}
