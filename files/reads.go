package files

// LineQuery asks for lines Start to End (1-based, inclusive; End 0 means
// the last line) of a text file, at most MaxBytes of them (0 means
// MaxReadAt).
type LineQuery struct {
	Start, End int
	MaxBytes   int64
}

// LineRange is a range of lines read from a text file. Each line keeps its
// "\n", so the lines of a whole file are its bytes, and ranges read one
// after the other put it back together exactly.
type LineRange struct {
	Content    string `json:"content"`
	TotalLines int    `json:"total_lines"`
	// Truncated says the range held more than MaxBytes: Content ends
	// before it, where NextLine (the next line to ask for) starts, or
	// inside a line longer than MaxBytes, where NextOffset (the byte to go
	// on reading from) points.
	Truncated  bool  `json:"truncated,omitempty"`
	NextLine   int   `json:"next_line,omitempty"`
	NextOffset int64 `json:"next_offset,omitempty"`
}

// MaxReadAt bounds one ReadAt, so a script cannot pull a whole huge file
// into memory through the byte API.
const MaxReadAt = 16 << 20

// Match is one line of a text search.
type Match struct {
	Line    int    `json:"line"`
	Content string `json:"content"`
}

// MaxMatches bounds what one search returns.
const MaxMatches = 1000
