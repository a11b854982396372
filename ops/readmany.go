package ops

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"convfiles/files"
)

// lineRange checks which lines a read asks for: a range (start_line to
// end_line), the first lines (head) or the last (tail), never two of
// them; the range it returns starts at 1 when not given.
func lineRange(name string, in ReadTextIn) (ReadTextIn, error) {
	bad := func(msg string) (ReadTextIn, error) {
		return in, files.E("read_text", files.KindInvalid, name, msg, nil)
	}
	if in.StartLine < 0 || in.EndLine < 0 || in.Head < 0 || in.Tail < 0 {
		return bad("start_line, end_line, head and tail are numbers of lines from 1; omit them to read the whole file")
	}
	ranged := in.StartLine > 0 || in.EndLine > 0
	if ranged && (in.Head > 0 || in.Tail > 0) || in.Head > 0 && in.Tail > 0 {
		return bad("ask for a range (start_line, end_line), the first lines (head) or the last (tail): one of them")
	}
	if in.Head > 0 {
		in.StartLine, in.EndLine = 1, in.Head
	}
	if in.StartLine == 0 {
		in.StartLine = 1
	}
	return in, nil
}

// readTail is the last n lines of a file, as a read_text answer.
func readTail(ctx context.Context, env Env, name string, n int) (ReadTextOut, error) {
	content, _, truncated, err := env.Space.ReadTail(ctx, name, n, env.MaxText)
	if err != nil {
		return ReadTextOut{}, err
	}
	total, err := env.Space.LineCount(ctx, name)
	if err != nil {
		return ReadTextOut{}, err
	}
	out := ReadTextOut{Content: content, TotalLines: total, Truncated: truncated}
	if truncated {
		out.Cut = fmt.Sprintf("cut at %d KiB to fit a model's turn: the earlier of the last %d lines are read with start_line and end_line", textBound(env)>>10, n)
	}
	return out, nil
}

// textBound is the most text one read answers through env's door.
func textBound(env Env) int64 {
	if env.MaxText > 0 {
		return env.MaxText
	}
	return files.MaxReadAt
}

// numberLines puts each line's number (from first) before it, right
// aligned in six places and a tab, as cat -n does. Past bound bytes it
// stops at a line's start and answers the line to go on from, else 0.
func numberLines(text string, first int, bound int64) (string, int) {
	var b strings.Builder
	b.Grow(len(text) + len(text)/8)
	n := first
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		num := strconv.Itoa(n)
		if int64(b.Len()+max(6, len(num))+1+len(line)) > bound && b.Len() > 0 {
			return b.String(), n
		}
		b.WriteString(strings.Repeat(" ", max(0, 6-len(num))))
		b.WriteString(num)
		b.WriteByte('\t')
		b.WriteString(line)
		text = text[len(line):]
		n++
	}
	return b.String(), 0
}

// MaxReadMany is how many files one read_many reads.
const MaxReadMany = 50

// ReadManyIn names the files to read, with the read_text options for
// each: a range, head, tail, line numbers.
type ReadManyIn struct {
	IDs         []string `json:"ids"`
	StartLine   int      `json:"start_line,omitempty"`
	EndLine     int      `json:"end_line,omitempty"`
	Head        int      `json:"head,omitempty"`
	Tail        int      `json:"tail,omitempty"`
	LineNumbers bool     `json:"line_numbers,omitempty"`
}

// ReadManyFile is one file of read_many: its text as read_text gives it,
// or why it could not be read.
type ReadManyFile struct {
	ID string `json:"id"`
	ReadTextOut
	Error string `json:"error,omitempty"`
}

// ReadManyOut is every file asked for, in order.
type ReadManyOut struct {
	Files []ReadManyFile `json:"files"`
}

// ReadMany is file_read_many, files.readMany: several text files in one
// call. Each gets an equal share of the answer's bound, so the whole
// answer stays within it; a file that cannot be read is an
// entry with its error, and the others are read all the same.
func ReadMany(ctx context.Context, env Env, in ReadManyIn) (ReadManyOut, error) {
	if len(in.IDs) == 0 || len(in.IDs) > MaxReadMany {
		return ReadManyOut{}, files.E("read_many", files.KindInvalid, "", fmt.Sprintf("ids names 1 to %d files to read", MaxReadMany), nil)
	}
	share := env
	share.MaxText = textBound(env) / int64(len(in.IDs))
	out := ReadManyOut{Files: make([]ReadManyFile, 0, len(in.IDs))}
	for _, id := range in.IDs {
		if err := ctx.Err(); err != nil {
			return ReadManyOut{}, err
		}
		one := ReadTextIn{ID: id, StartLine: in.StartLine, EndLine: in.EndLine, Head: in.Head, Tail: in.Tail, LineNumbers: in.LineNumbers}
		r, err := ReadText(ctx, share, one)
		f := ReadManyFile{ID: id, ReadTextOut: r}
		if err != nil {
			f.Error = files.MessageOf(err)
		}
		out.Files = append(out.Files, f)
	}
	return out, nil
}

func init() {
	def(Op{Name: "read_many", JS: "readMany", Params: []string{"ids", "...options"}, Tool: "file_read_many", Effect: Reads, Sample: `{}`}, ReadMany)
}
