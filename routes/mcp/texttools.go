package mcp

import (
	"fmt"
	"regexp"

	"convfiles/content"
	"convfiles/files"
)

type readTextIn struct {
	Scope
	ID        string `json:"id"`
	StartLine int    `json:"start_line,omitempty"` // 0: from line 1
	EndLine   int    `json:"end_line,omitempty"`   // 0: to the end
}

// readTextOut is seed 004's answer, plus where to go on when the text
// was cut at MaxTextAnswer.
type readTextOut struct {
	Content    string `json:"content"`
	TotalLines int    `json:"total_lines"`
	Truncated  bool   `json:"truncated,omitempty"`
	NextLine   int    `json:"next_start_line,omitempty"`
	NextOffset int64  `json:"next_byte_offset,omitempty"`
}

// MaxTextAnswer bounds the text one file_read_text answers: a model cannot
// use more in one turn, and a client holds the whole answer in memory. A
// longer range is cut at a line boundary and says where to go on.
const MaxTextAnswer = 256 << 10

func (s *Server) fileReadText(c *call, in readTextIn) (readTextOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return readTextOut{}, err
	}
	start := in.StartLine
	if start == 0 {
		start = 1
	}
	if start < 0 || in.EndLine < 0 {
		return readTextOut{}, files.E("file_read_text", files.KindInvalid, name, "start_line and end_line are line numbers from 1; omit them to read the whole file", nil)
	}
	if err := requireText(c.sp, name); err != nil {
		return readTextOut{}, err
	}
	r, err := c.sp.ReadLines(name, files.LineQuery{Start: start, End: in.EndLine, MaxBytes: MaxTextAnswer})
	if err != nil {
		return readTextOut{}, err
	}
	return readTextOut{Content: r.Content, TotalLines: r.TotalLines, Truncated: r.Truncated, NextLine: r.NextLine, NextOffset: r.NextOffset}, nil
}

// requireText refuses to read a file that is not text as text: its bytes
// would reach the model as mojibake many times their size. The error
// names the tools that read it.
func requireText(sp *files.Space, name string) error {
	f, info, err := sp.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	kind, mime := content.DetectReader(info.Name, f, info.Size)
	if kind == content.KindText {
		return nil
	}
	hint := "file_info describes it"
	switch kind {
	case content.KindImage, content.KindPDF:
		hint = "read it with file_read_media"
	}
	return files.E("file_read_text", files.KindInvalid, name, fmt.Sprintf("is not text but %s (%s); %s", kind, mime, hint), nil)
}

type writeTextIn struct {
	Scope
	ID      string `json:"id"`
	Content string `json:"content"`
}

type writeOut struct {
	OK   bool  `json:"ok"`
	Size int64 `json:"size"`
}

func (s *Server) fileWriteText(c *call, in writeTextIn) (writeOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return writeOut{}, err
	}
	info, err := c.sp.WriteBytes(c.ctx, name, []byte(in.Content), c.writeOpts())
	if err != nil {
		return writeOut{}, err
	}
	return writeOut{OK: true, Size: info.Size}, nil
}

type replaceLinesIn struct {
	Scope
	ID        string `json:"id"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Content   string `json:"content"`
}

type linesOut struct {
	OK         bool `json:"ok"`
	TotalLines int  `json:"total_lines"`
}

func (s *Server) fileReplaceLines(c *call, in replaceLinesIn) (linesOut, error) {
	if in.EndLine < in.StartLine {
		return linesOut{}, files.E("file_replace_lines", files.KindInvalid, in.ID, "end_line must be at least start_line; to insert without replacing, use file_insert_lines", nil)
	}
	return s.editLines(c, in.ID, in.StartLine, in.EndLine, in.Content)
}

func (s *Server) editLines(c *call, id string, start, end int, text string) (linesOut, error) {
	name, err := c.sp.Resolve(id)
	if err != nil {
		return linesOut{}, err
	}
	total, err := c.sp.ReplaceLines(c.ctx, name, start, end, text, c.writeOpts())
	if err != nil {
		return linesOut{}, err
	}
	return linesOut{OK: true, TotalLines: total}, nil
}

type insertLinesIn struct {
	Scope
	ID        string `json:"id"`
	AfterLine int    `json:"after_line"`
	Content   string `json:"content"`
}

func (s *Server) fileInsertLines(c *call, in insertLinesIn) (linesOut, error) {
	if in.AfterLine < 0 {
		return linesOut{}, files.E("file_insert_lines", files.KindInvalid, in.ID, "after_line must be 0 (the top) or a line number", nil)
	}
	return s.editLines(c, in.ID, in.AfterLine+1, in.AfterLine, in.Content)
}

type searchIn struct {
	Scope
	ID      string `json:"id"`
	Pattern string `json:"pattern"`
}

type searchOut struct {
	Matches   []files.Match `json:"matches"`
	Truncated bool          `json:"truncated"`
}

func (s *Server) fileSearchText(c *call, in searchIn) (searchOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return searchOut{}, err
	}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return searchOut{}, files.E("file_search_text", files.KindInvalid, in.Pattern, "the pattern is not valid RE2 (no lookaround or backreferences): "+err.Error(), nil)
	}
	m, truncated, err := c.sp.Search(name, re)
	if err != nil {
		return searchOut{}, err
	}
	if m == nil {
		m = []files.Match{}
	}
	return searchOut{Matches: m, Truncated: truncated}, nil
}
