package ops

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"convfiles/content"
	"convfiles/files"
)

// Search bounds: matches in one answer (by default and at most), the
// bytes one search reads, and the text of a matching line it shows.
const (
	DefaultSearchResults = 100
	MaxSearchResults     = 1000
	MaxSearchBytes       = 256 << 20
	MaxMatchText         = 400
)

// SearchFilesIn searches a conversation's files: by name (a glob), by
// content (an RE2 pattern), or both, below a folder.
type SearchFilesIn struct {
	Pattern    string `json:"pattern,omitempty"`
	Name       string `json:"name,omitempty"`
	Path       string `json:"path,omitempty"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`
	// SmartCase ignores case unless the pattern has a capital letter, as
	// ripgrep's --smart-case.
	SmartCase  bool `json:"smart_case,omitempty"`
	MaxResults int  `json:"max_results,omitempty"`
	// Before, After and Context are lines shown around each match, as
	// grep's -B, -A and -C (Context sets both); at most MaxContextLines.
	Before  int `json:"before,omitempty"`
	After   int `json:"after,omitempty"`
	Context int `json:"context,omitempty"`
	// Output is "content" (the matching lines, the default), "files"
	// (the names of the files that match, as grep -l) or "count" (how
	// many lines match in each file, as grep -c).
	Output string `json:"output,omitempty"`
}

// MaxContextLines bounds the lines a search shows before and after a
// match.
const MaxContextLines = 20

// SearchHit is a matching line of a file (or, for a search by name
// only, the file).
type SearchHit struct {
	Name    string `json:"name"`
	Line    int    `json:"line,omitempty"`
	Content string `json:"content,omitempty"`
	Size    int64  `json:"size,omitempty"`
	// Before and After are the lines around the match asked for, in
	// order: the first of Before is line Line-len(Before).
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
	// Count is how many lines of the file match (output "count").
	Count int `json:"count,omitempty"`
}

// SearchFilesOut is what a search found, and how much it looked at.
type SearchFilesOut struct {
	Matches       []SearchHit `json:"matches"`
	FilesMatched  int         `json:"files_matched"`
	FilesSearched int         `json:"files_searched"`
	// SkippedBinary counts files that are not text, which a content
	// search does not read.
	SkippedBinary int `json:"skipped_binary,omitempty"`
	// Truncated says the search stopped early; Reason says why.
	Truncated bool   `json:"truncated,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// SearchFiles is file_search, files.search: matching files in name
// order, each matching line with its number; binary files are skipped.
func SearchFiles(ctx context.Context, env Env, in SearchFilesIn) (SearchFilesOut, error) {
	const op = "search"
	q, re, max, err := searchQuery(in)
	if err != nil {
		return SearchFilesOut{}, err
	}
	out := SearchFilesOut{Matches: []SearchHit{}}
	if re == nil {
		q.Limit = max
		recs, total, err := env.Space.Find(ctx, q)
		if err != nil {
			return SearchFilesOut{}, err
		}
		for _, r := range recs {
			out.Matches = append(out.Matches, SearchHit{Name: r.Name, Size: r.Size})
		}
		out.FilesMatched, out.FilesSearched = total, total
		if total > max {
			out.Truncated, out.Reason = true, fmt.Sprintf("%d files match; the first %d by name are listed; narrow the name or path", total, max)
		}
		return out, nil
	}
	opts, err := searchOptions(in)
	if err != nil {
		return SearchFilesOut{}, err
	}
	if prefix, _ := re.LiteralPrefix(); prefix != "" {
		opts.literal = []byte(prefix)
	}
	cs := contentSearch{scanners: newScanners(env.Space), re: re, max: max, budget: MaxSearchBytes, out: &out, opts: opts}
	defer cs.close()
	// The names and sizes are all the search needs of the index: they
	// stream in name order, far lighter than whole rows.
	feed := feedFiles(ctx, env.Space, q)
	defer feed.stop()
	if err := cs.search(ctx, feed); err != nil {
		return SearchFilesOut{}, err
	}
	return out, nil
}

// contentSearch searches files in name order, a chunk at a time, until
// max matches or MaxSearchBytes read.
type contentSearch struct {
	scanners []*lineScanner
	re       *regexp.Regexp
	max      int
	budget   int64
	out      *SearchFilesOut
	opts     searchOpts
}

// close lets go of the folders the workers hold open.
func (cs *contentSearch) close() {
	for _, sc := range cs.scanners {
		sc.folder.close()
	}
}

// search searches the files the feed hands it, until they are all read
// or out.Truncated says it stopped.
func (cs *contentSearch) search(ctx context.Context, feed *fileFeed) error {
	out := cs.out
	for {
		if err := ctx.Err(); err != nil {
			return files.E("search", files.KindInvalid, "", "the search was cancelled", err)
		}
		recs, err := feed.next(searchChunk)
		if err != nil || len(recs) == 0 {
			return err
		}
		n := 0
		for n < len(recs) && recs[n].size <= cs.budget {
			cs.budget -= recs[n].size
			n++
		}
		if stop, err := cs.take(ctx, recs[:n]); stop || err != nil {
			return err
		}
		if n < len(recs) {
			out.Truncated, out.Reason = true, fmt.Sprintf("the search read %s; narrow it by name or path", files.FormatBytes(MaxSearchBytes))
			return nil
		}
	}
}

// take searches recs at once and adds what they hold to the answer in
// their order; stop says the answer is full.
func (cs *contentSearch) take(ctx context.Context, recs []searchFile) (stop bool, err error) {
	out := cs.out
	for _, res := range searchChunkOf(ctx, cs.scanners, recs, cs.re, cs.max-len(out.Matches)+1, cs.opts) {
		switch {
		case res.err != nil && files.KindOf(res.err) == files.KindNotFound:
			continue // deleted while the search ran
		case res.err != nil:
			return false, res.err
		case res.binary:
			out.SkippedBinary++
			continue
		}
		out.FilesSearched++
		if len(res.hits) > 0 {
			out.FilesMatched++
		}
		if room := cs.max - len(out.Matches); len(res.hits) > room {
			out.Matches = append(out.Matches, res.hits[:room]...)
			what := "lines match"
			if cs.opts.output == "files" || cs.opts.output == "count" {
				what = "files match"
			}
			out.Truncated, out.Reason = true, fmt.Sprintf("more than %d %s; narrow the pattern, name or path, or raise max_results (at most %d)", cs.max, what, MaxSearchResults)
			return true, nil
		}
		out.Matches = append(out.Matches, res.hits...)
	}
	return false, nil
}

// searchQuery checks a search's input and makes its listing query and
// its regular expression (nil for a search by name only).
func searchQuery(in SearchFilesIn) (files.ListQuery, *regexp.Regexp, int, error) {
	const op = "search"
	var q files.ListQuery
	max := in.MaxResults
	if max == 0 {
		max = DefaultSearchResults
	}
	if max < 1 || max > MaxSearchResults {
		return q, nil, 0, files.E(op, files.KindInvalid, "", fmt.Sprintf("max_results is 1 to %d", MaxSearchResults), nil)
	}
	if in.Pattern == "" && in.Name == "" {
		return q, nil, 0, files.E(op, files.KindInvalid, "", `give a pattern (RE2, searched in the files' text), a name (a glob such as "*.md"), or both`, nil)
	}
	if in.Name != "" {
		if err := files.ValidateGlob(in.Name); err != nil {
			return q, nil, 0, err
		}
		q.Pattern = in.Name
	}
	if in.Path != "" && in.Path != "." && in.Path != "/" {
		p, err := folderPath(in.Path)
		if err != nil {
			return q, nil, 0, err
		}
		q.Prefix = p + "/"
	}
	if in.Pattern == "" {
		return q, nil, max, nil
	}
	src := in.Pattern
	if in.IgnoreCase || in.SmartCase && !hasCapital(in.Pattern) {
		src = "(?i)" + src
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return q, nil, 0, files.E(op, files.KindInvalid, in.Pattern, "the pattern is not valid RE2 (no lookaround or backreferences): "+err.Error(), nil)
	}
	return q, re, max, nil
}

// hasCapital reports whether a pattern has a capital letter outside an
// escape (\S is not one).
func hasCapital(pattern string) bool {
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			i++
		case c >= 'A' && c <= 'Z':
			return true
		case c >= 0x80:
			return strings.ToLower(pattern[i:]) != pattern[i:]
		}
	}
	return false
}

// searchOptions checks the context lines and the output mode.
func searchOptions(in SearchFilesIn) (searchOpts, error) {
	o := searchOpts{before: in.Before, after: in.After, output: in.Output}
	if in.Context != 0 {
		o.before, o.after = max(o.before, in.Context), max(o.after, in.Context)
	}
	for _, n := range []int{in.Before, in.After, in.Context} {
		if n < 0 || n > MaxContextLines {
			return o, files.E("search", files.KindInvalid, "", fmt.Sprintf("before, after and context are 0 to %d lines", MaxContextLines), nil)
		}
	}
	switch o.output {
	case "", "content", "files", "count":
	default:
		return o, files.E("search", files.KindInvalid, o.output, `output is "content" (the matching lines), "files" (the names of the files that match) or "count" (how many lines match in each)`, nil)
	}
	return o, nil
}

// isBinaryName says a file's name is enough to know it is not text.
func isBinaryName(name string) bool {
	mt := content.RecordedMIME(name, "")
	return strings.HasPrefix(mt, "image/") && mt != "image/svg+xml" || mt == "application/pdf" || mt == "application/zip" ||
		strings.HasPrefix(mt, "application/vnd.openxmlformats") || strings.HasPrefix(mt, "audio/") || strings.HasPrefix(mt, "video/")
}

func init() {
	def(Op{Name: "search", JS: "search", Params: []string{"pattern", "...options"}, Tool: "file_search", Effect: Reads, Bulk: true}, SearchFiles)
}
