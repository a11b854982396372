package spreadsheet

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"path"
	"strings"
)

// csvSheet is a CSV or TSV file read as a workbook of one sheet, named
// after the file as LibreOffice names it. Each read streams the file.
type csvSheet struct {
	r     io.ReaderAt
	size  int64
	name  string
	delim rune
}

func newCSVSheet(r io.ReaderAt, size int64, name string) *csvSheet {
	base := path.Base(name)
	s := &csvSheet{r: r, size: size, name: strings.TrimSuffix(base, path.Ext(base)), delim: ','}
	if s.name == "" {
		s.name = "Sheet1"
	}
	if strings.EqualFold(path.Ext(name), ".tsv") {
		s.delim = '\t'
	} else {
		head := make([]byte, min(size, 64<<10))
		n, _ := r.ReadAt(head, 0)
		s.delim = sniffDelimiter(head[:n])
	}
	return s
}

// sniffDelimiter picks the separator the first line uses most among comma,
// semicolon (European CSV) and tab.
func sniffDelimiter(data []byte) rune {
	line := data
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	best, n := ',', bytes.Count(line, []byte(","))
	for _, d := range []rune{';', '\t'} {
		if c := bytes.Count(line, []byte(string(d))); c > n {
			best, n = d, c
		}
	}
	return best
}

func (s *csvSheet) rows() rowSource {
	br := bufio.NewReaderSize(io.NewSectionReader(s.r, 0, s.size), 64<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	r := csv.NewReader(br)
	r.Comma = s.delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = true
	return &csvRows{r: r}
}

type csvRows struct {
	r *csv.Reader
	n int
	e error
}

func (c *csvRows) next() (int, []string, bool) {
	rec, err := c.r.Read()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			c.e = err
		}
		return 0, nil, false
	}
	c.n++
	// trim trailing empty fields, as a workbook row has no trailing blanks
	end := len(rec)
	for end > 0 && rec[end-1] == "" {
		end--
	}
	return c.n, append([]string(nil), rec[:end]...), true
}

func (c *csvRows) err() error { return c.e }
func (c *csvRows) close()     {}
