package ops

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"convfiles/content"
	"convfiles/files"
)

// MaxTextAnswer bounds the text one read_text answers through a door that
// answers in one message (MCP, REST): a model cannot use more in one turn,
// and a client holds the whole answer in memory. A longer range is cut at
// a line boundary and says where to go on.
const MaxTextAnswer = 256 << 10

// ModelAnswer bounds the answer of a door that answers a language model
// (MCP) at about 25,000 tokens, as coding agents bound their own reads: a
// read, a page of a listing. What is left is named, with the call that
// gets it.
const ModelAnswer = 96 << 10

// ModelText is the most text one read answers a model: the answer's
// bound less room for its other fields.
const ModelText = ModelAnswer - 4<<10

// ModelListing bounds a page of a listing a model reads: JSON of IDs,
// links and dates is about 2.6 bytes a token, so 64 KiB is about 25,000
// tokens.
const ModelListing = 64 << 10

// cutNote names a cut answer's bound and the argument that goes on.
func cutNote(bound int, arg string, next any) string {
	return fmt.Sprintf("cut at %d KiB to fit a model's turn: call again with %s=%v for the rest", bound>>10, arg, next)
}

// ReadTextIn asks for a file's text, whole or a range of lines.
type ReadTextIn struct {
	ID        string `json:"id"`
	StartLine int    `json:"start_line,omitempty"` // 0: from line 1
	EndLine   int    `json:"end_line,omitempty"`   // 0: to the end
	// Head and Tail read the first or the last lines instead of a range.
	Head int `json:"head,omitempty"`
	Tail int `json:"tail,omitempty"`
	// LineNumbers puts each line's number before it, as cat -n does.
	LineNumbers bool `json:"line_numbers,omitempty"`
}

// ReadTextOut is the text read, each line with its newline, and where to
// go on when it was cut at the door's bound.
type ReadTextOut struct {
	Content    string `json:"content"`
	TotalLines int    `json:"total_lines"`
	Truncated  bool   `json:"truncated,omitempty"`
	NextLine   int    `json:"next_start_line,omitempty"`
	NextOffset int64  `json:"next_byte_offset,omitempty"`
	// Cut says, when Truncated, where the answer's bound fell and the call
	// that reads on.
	Cut string `json:"cut,omitempty"`
}

// ReadText is file_read_text, files.readText. A file that is not text is
// refused: its bytes would reach a model as mojibake many times their
// size; the error names what reads it.
func ReadText(ctx context.Context, env Env, in ReadTextIn) (ReadTextOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return ReadTextOut{}, err
	}
	in, err = lineRange(name, in)
	if err != nil {
		return ReadTextOut{}, err
	}
	if err := requireText(ctx, env.Space, name); err != nil {
		return ReadTextOut{}, err
	}
	var out ReadTextOut
	if in.Tail > 0 {
		out, err = readTail(ctx, env, name, in.Tail)
		in.StartLine = out.TotalLines - strings.Count(out.Content, "\n") + 1
		if !strings.HasSuffix(out.Content, "\n") && out.Content != "" {
			in.StartLine--
		}
	} else {
		out, err = readLines(ctx, env, name, in.StartLine, in.EndLine)
	}
	if err != nil || !in.LineNumbers {
		return out, err
	}
	numbered, next := numberLines(out.Content, in.StartLine, textBound(env))
	out.Content = numbered
	if next > 0 && (!out.Truncated || out.NextLine == 0 || next < out.NextLine) {
		out.Truncated, out.NextLine, out.NextOffset = true, next, 0
		out.Cut = cutNote(int(textBound(env)), "start_line", next)
	}
	return out, nil
}

// readLines reads lines start to end (0: the last), cut at the door's
// bound with where to go on.
func readLines(ctx context.Context, env Env, name string, start, end int) (ReadTextOut, error) {
	r, err := env.Space.ReadLines(ctx, name, files.LineQuery{Start: start, End: end, MaxBytes: env.MaxText})
	if err != nil {
		return ReadTextOut{}, err
	}
	out := ReadTextOut{Content: r.Content, TotalLines: r.TotalLines, Truncated: r.Truncated, NextLine: r.NextLine, NextOffset: r.NextOffset}
	switch {
	case !r.Truncated:
	case r.NextLine > 0:
		out.Cut = cutNote(int(env.MaxText), "start_line", r.NextLine)
	default:
		out.Cut = fmt.Sprintf("cut at %d KiB inside one long line: read on with read_bytes from offset %d", env.MaxText>>10, r.NextOffset)
	}
	return out, nil
}

// requireText refuses a file that is not text.
func requireText(ctx context.Context, sp files.Ops, name string) error {
	kind, mime, err := detect(ctx, sp, name)
	if err != nil || kind == content.KindText {
		return err
	}
	hint := "read_bytes reads its bytes"
	switch kind {
	case content.KindImage, content.KindPDF:
		hint = "file_read_media shows it to a model; read_bytes reads its bytes"
	}
	return files.E("read_text", files.KindInvalid, name, fmt.Sprintf("is not text but %s (%s); %s", kind, mime, hint), nil)
}

// ReadBytesIn asks for length bytes from offset.
type ReadBytesIn struct {
	ID     string `json:"id"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

// BytesOut is bytes as base64.
type BytesOut struct {
	Data string `json:"data"`
}

// ReadBytes is files.readBytes: at most files.MaxReadAt bytes from an
// offset, as base64.
func ReadBytes(ctx context.Context, env Env, in ReadBytesIn) (BytesOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return BytesOut{}, err
	}
	b, err := env.Space.ReadAt(ctx, name, in.Offset, in.Length)
	if err != nil {
		return BytesOut{}, err
	}
	return BytesOut{Data: base64.StdEncoding.EncodeToString(b)}, nil
}

// LinesOut is a count of lines.
type LinesOut struct {
	Lines int `json:"lines"`
}

// LineCount is files.lineCount.
func LineCount(ctx context.Context, env Env, in IDIn) (LinesOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return LinesOut{}, err
	}
	n, err := env.Space.LineCount(ctx, name)
	return LinesOut{Lines: n}, err
}

// TailIn asks for the last lines of a text file.
type TailIn struct {
	ID    string `json:"id"`
	Lines int    `json:"lines,omitempty"` // 0: DefaultTailLines
}

// TailOut is the last lines of a file, each with its newline, how many
// they are, and whether the answer's bound left some out.
type TailOut struct {
	Content   string `json:"content"`
	Lines     int    `json:"lines"`
	Truncated bool   `json:"truncated,omitempty"`
}

// DefaultTailLines is how many lines read_tail returns when not told.
const DefaultTailLines = 10

// ReadTail is file_read_tail, files.readTail: tail -n of a text file,
// read back from its end, so the tail of a huge log costs its own bytes.
func ReadTail(ctx context.Context, env Env, in TailIn) (TailOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return TailOut{}, err
	}
	n := in.Lines
	if n == 0 {
		n = DefaultTailLines
	}
	if n < 0 {
		return TailOut{}, files.E("read_tail", files.KindInvalid, name, "lines is how many lines to return from the end: 1 or more", nil)
	}
	if err := requireText(ctx, env.Space, name); err != nil {
		return TailOut{}, err
	}
	content, lines, truncated, err := env.Space.ReadTail(ctx, name, n, env.MaxText)
	return TailOut{Content: content, Lines: lines, Truncated: truncated}, err
}

// SearchIn asks for the lines of a file that match an RE2 pattern.
type SearchIn struct {
	ID      string `json:"id"`
	Pattern string `json:"pattern"`
}

// SearchOut is the matching lines, and whether there were more.
type SearchOut struct {
	Matches   []files.Match `json:"matches"`
	Truncated bool          `json:"truncated"`
}

// SearchText is file_search_text, files.searchText.
func SearchText(ctx context.Context, env Env, in SearchIn) (SearchOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return SearchOut{}, err
	}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return SearchOut{}, files.E("search_text", files.KindInvalid, in.Pattern, "the pattern is not valid RE2 (no lookaround or backreferences): "+err.Error(), nil)
	}
	m, truncated, err := env.Space.Search(ctx, name, re)
	if err != nil {
		return SearchOut{}, err
	}
	if m == nil {
		m = []files.Match{}
	}
	return SearchOut{Matches: m, Truncated: truncated}, nil
}

func init() {
	def(Op{Name: "read_text", JS: "readText", Params: []string{"id", "...options"}, Tool: "file_read_text", Effect: Reads}, ReadText)
	def(Op{Name: "read_bytes", JS: "readBytes", Params: []string{"id", "offset", "length"}, Tool: "file_read_bytes", Effect: Reads,
		Unwrap: "data"}, ReadBytes)
	def(Op{Name: "read_tail", JS: "readTail", Params: []string{"id", "lines"}, Tool: "file_read_tail", Effect: Reads, Sample: `{"lines": 2}`}, ReadTail)
	def(Op{Name: "line_count", JS: "lineCount", Params: []string{"id"}, Tool: "file_line_count", Effect: Reads, Unwrap: "lines"}, LineCount)
	def(Op{Name: "search_text", JS: "searchText", Params: []string{"id", "pattern"}, Tool: "file_search_text", Effect: Reads}, SearchText)
}
