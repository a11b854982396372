package ops

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"sync"
	"unicode/utf8"

	"convfiles/files"
)

// maxSearchLine is how much of one line a search matches against: the
// rest of a longer line is skipped.
const maxSearchLine = 1 << 20

// searchChunk is how many files are searched at once, by searchWorkers
// goroutines, before their matches join the answer in name order.
const (
	searchChunk   = 64
	searchWorkers = 4
)

// searchOpts are how a search shows what it finds: the lines around each
// match, and the output mode ("", "content", "files" or "count").
type searchOpts struct {
	before, after int
	output        string
	// literal is text every match begins with (the pattern's literal
	// prefix): a file read whole that lacks it is not scanned line by line.
	literal []byte
}

// searchFile is a file a content search reads: its name and size, all
// it needs of the index.
type searchFile struct {
	name string
	size int64
}

// fileHits is what searching one file found.
type fileHits struct {
	hits   []SearchHit
	binary bool
	err    error
}

// lineScanner reads files line by line, opening them through a folder
// cursor; each worker has its own for the whole search.
type lineScanner struct {
	rd     *bufio.Reader
	line   []byte
	folder folderCursor
}

func newScanners(sp files.Ops) []*lineScanner {
	out := make([]*lineScanner, searchWorkers)
	for i := range out {
		out[i] = &lineScanner{rd: bufio.NewReaderSize(nil, 64<<10), folder: folderCursor{sp: sp}}
	}
	return out
}

// searchChunkOf searches recs at once, a worker for each scanner, and
// returns their results in order; each file keeps at most limit matches.
func searchChunkOf(ctx context.Context, scanners []*lineScanner, recs []searchFile, re *regexp.Regexp, limit int, opts searchOpts) []fileHits {
	out := make([]fileHits, len(recs))
	next := make(chan int, len(recs))
	for i := range recs {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for _, sc := range scanners[:min(len(scanners), len(recs))] {
		wg.Go(func() {
			for i := range next {
				out[i] = sc.search(ctx, recs[i], re, limit, opts)
			}
		})
	}
	wg.Wait()
	return out
}

// search finds the lines of one file that re matches, unless the file
// is not text: its name says so, or its first bytes hold a NUL
// or are not UTF-8.
func (sc *lineScanner) search(ctx context.Context, r searchFile, re *regexp.Regexp, limit int, opts searchOpts) fileHits {
	if isBinaryName(r.name) {
		return fileHits{binary: true}
	}
	f, info, err := sc.folder.open(ctx, r.name)
	if err != nil {
		return fileHits{err: err}
	}
	defer f.Close()
	sc.rd.Reset(f)
	head, _ := sc.rd.Peek(sniffText)
	if !looksLikeText(head, int64(len(head)) == info.Size) {
		return fileHits{binary: true}
	}
	if len(opts.literal) > 0 && int64(sc.rd.Buffered()) == info.Size {
		whole, _ := sc.rd.Peek(sc.rd.Buffered())
		if !bytes.Contains(whole, opts.literal) {
			return fileHits{}
		}
	}
	var res fileHits
	var before []string  // the lines before this one, at most opts.before
	after, count := 0, 0 // lines still to add to the last hit's After
	for n := 1; ; n++ {
		line, err := sc.readLine()
		matched := (len(line) > 0 || err == nil) && re.Match(line)
		switch {
		case matched && opts.output == "files":
			res.hits = append(res.hits, SearchHit{Name: info.Name})
			return res
		case matched && opts.output == "count":
			count++
		case matched:
			if len(res.hits) == limit {
				return res
			}
			res.hits = append(res.hits, SearchHit{Name: info.Name, Line: n, Content: excerpt(line, re), Before: before})
			before, after = nil, opts.after
		case after > 0 && (len(line) > 0 || err == nil):
			last := &res.hits[len(res.hits)-1]
			last.After = append(last.After, excerpt(line, nil))
			after--
		case opts.before > 0 && (len(line) > 0 || err == nil):
			if len(before) == opts.before {
				before = before[1:]
			}
			before = append(before[:len(before):len(before)], excerpt(line, nil))
		}
		if err == io.EOF {
			if count > 0 {
				res.hits = append(res.hits, SearchHit{Name: info.Name, Count: count})
			}
			return res
		}
		if err != nil {
			res.err = err
			return res
		}
	}
}

// sniffText is how much of a file decides whether it is text.
const sniffText = 8 << 10

// looksLikeText reports whether head is UTF-8 without NUL bytes; a rune
// cut at its end is forgiven unless head is the whole file.
func looksLikeText(head []byte, whole bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	if utf8.Valid(head) {
		return true
	}
	for i := 1; !whole && i < utf8.UTFMax && i <= len(head); i++ {
		if utf8.Valid(head[:len(head)-i]) {
			return true
		}
	}
	return false
}

// readLine reads the next line without its line break, at most
// maxSearchLine bytes of it.
func (sc *lineScanner) readLine() ([]byte, error) {
	sc.line = sc.line[:0]
	for {
		chunk, err := sc.rd.ReadSlice('\n')
		if len(sc.line)+len(chunk) <= maxSearchLine {
			sc.line = append(sc.line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line := sc.line
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			if n > 1 && line[n-2] == '\r' {
				line = line[:n-2]
			}
		}
		return line, err
	}
}

// excerpt is a line, or MaxMatchText bytes of it (around the first
// match of re, when given), cut at rune boundaries, with "…" where it was cut.
func excerpt(line []byte, re *regexp.Regexp) string {
	if len(line) <= MaxMatchText {
		return string(line)
	}
	start := 0
	if re != nil { // a matching line: around its match; a line around one: its start
		if loc := re.FindIndex(line); loc != nil {
			start = max(loc[0]-MaxMatchText/4, 0)
		}
	}
	end := min(start+MaxMatchText, len(line))
	for start > 0 && !utf8.RuneStart(line[start]) {
		start++
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end--
	}
	text := string(line[start:end])
	if start > 0 {
		text = "…" + text
	}
	if end < len(line) {
		text += "…"
	}
	return text
}
