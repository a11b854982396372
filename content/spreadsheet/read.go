package spreadsheet

import (
	"context"
	"slices"

	"convfiles/content"
)

// MaxReadCells is the most cells one ReadRange returns: an agent reads a
// large sheet in pieces, after a summary.
const MaxReadCells = 100_000

// SheetInfo is one sheet of ListSheets.
type SheetInfo struct {
	Name    string `json:"name"`
	Rows    int    `json:"rows"`    // the last row with data
	Columns int    `json:"columns"` // the last column with data
}

// ListSheets lists the sheets with their row and column counts, counted
// by streaming each sheet.
func (b *Book) ListSheets(ctx context.Context) ([]SheetInfo, error) {
	var out []SheetInfo
	for _, name := range b.SheetNames() {
		src, _, err := b.rows(name)
		if err != nil {
			return nil, err
		}
		cols := 0
		rows, err := walk(ctx, src, 0, func(_ int, cells []string) bool {
			cols = max(cols, len(cells))
			return true
		})
		if err != nil {
			return nil, err
		}
		out = append(out, SheetInfo{Name: name, Rows: rows, Columns: cols})
	}
	return out, nil
}

// Row is one row of a summary: its number and its values.
type Row struct {
	Row    int   `json:"row"`
	Values []any `json:"values"`
}

// Summary is what an agent reads first to understand a sheet.
type Summary struct {
	Sheet   string `json:"sheet"`
	Rows    int    `json:"rows"`
	Columns int    `json:"columns"`
	Range   string `json:"range"`   // the used range, "" when the sheet is empty
	Headers []any  `json:"headers"` // the first row's values
	Top     []Row  `json:"top"`     // the rows after the headers
	Bottom  []Row  `json:"bottom"`  // the last rows, when they are not among Top
}

// Summary streams a sheet ("" is the first) once and returns its size, its
// first row as headers, and samples rows from the top and from the bottom.
// Memory stays bounded by the samples, whatever the sheet's length.
func (b *Book) Summary(ctx context.Context, sheet string, samples int) (Summary, error) {
	if samples <= 0 {
		samples = 5
	}
	samples = min(samples, 100)
	src, name, err := b.rows(sheet)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Sheet: name, Headers: []any{}, Top: []Row{}, Bottom: []Row{}}
	// The ring holds the last rows as read, each slot's slice reused, and
	// only the rows kept are typed: a long sheet costs no allocation per row.
	type rawRow struct {
		num   int
		cells []string
	}
	ring := make([]rawRow, 0, samples)
	start := 0 // ring's oldest entry once it is full
	last, err := walk(ctx, src, 0, func(num int, cells []string) bool {
		s.Columns = max(s.Columns, len(cells))
		switch {
		case num == 1:
			s.Headers = values(cells)
		case num <= samples+1:
			s.Top = append(s.Top, Row{num, values(cells)})
		case len(cells) == 0:
			// blank rows are not sampled; the ring keeps the last rows with data
		case len(ring) < samples:
			ring = append(ring, rawRow{num, slices.Clone(cells)})
		default:
			ring[start] = rawRow{num, append(ring[start].cells[:0], cells...)}
			start = (start + 1) % samples
		}
		return true
	})
	if err != nil {
		return Summary{}, err
	}
	s.Rows = last
	for i := range ring {
		if r := ring[(start+i)%len(ring)]; r.num <= last {
			s.Bottom = append(s.Bottom, Row{r.num, values(r.cells)})
		}
	}
	for len(s.Top) > 0 && s.Top[len(s.Top)-1].Row > last { // blank rows after the data
		s.Top = s.Top[:len(s.Top)-1]
	}
	if last > 0 && s.Columns > 0 {
		s.Range = CellName(1, 1) + ":" + CellName(s.Columns, last)
	}
	return s, nil
}

// ReadRange returns the values of a range of a sheet as rows of values,
// streaming the sheet up to the range's last row. Empty cells are null.
// Whole columns ("A:C") end at the sheet's last row with data.
func (b *Book) ReadRange(ctx context.Context, sheet, ref string) ([][]any, error) {
	rg, err := ParseRange(ref)
	if err != nil {
		return nil, err
	}
	if rg.ToRow > 0 && rg.ToCol > 0 && int64(rg.ToRow-rg.FromRow+1)*int64(rg.ToCol-rg.FromCol+1) > MaxReadCells {
		return nil, tooManyCells(ref)
	}
	src, _, err := b.rows(sheet)
	if err != nil {
		return nil, err
	}
	var out [][]any
	cells := 0
	last, err := walk(ctx, src, rg.ToRow, func(num int, row []string) bool {
		if num < rg.FromRow {
			return true
		}
		to := rg.ToCol
		if to == 0 {
			to = max(len(row), rg.FromCol)
		}
		vals := make([]any, to-rg.FromCol+1)
		for c := rg.FromCol; c <= to && c <= len(row); c++ {
			vals[c-rg.FromCol] = typed(row[c-1])
		}
		cells += len(vals)
		out = append(out, vals)
		return cells <= MaxReadCells
	})
	if err != nil {
		return nil, err
	}
	if cells > MaxReadCells {
		return nil, tooManyCells(ref)
	}
	if rg.ToRow == 0 { // whole columns: stop at the last row with data
		if keep := last - rg.FromRow + 1; keep < len(out) {
			out = out[:max(keep, 0)]
		}
	} else {
		for len(out) < rg.ToRow-rg.FromRow+1 { // rows past the sheet's end are blank
			out = append(out, make([]any, rg.ToCol-rg.FromCol+1))
		}
	}
	if rg.ToCol == 0 { // whole rows: make them one width
		w := 0
		for _, r := range out {
			w = max(w, len(r))
		}
		for i := range out {
			out[i] = append(out[i], make([]any, w-len(out[i]))...)
		}
	}
	if out == nil {
		out = [][]any{}
	}
	return out, nil
}

func tooManyCells(ref string) error {
	return content.Refuse(content.ErrTooLarge,
		"the range %q holds more than %d cells: read it in smaller ranges (getSheetSummary gives the sheet's size)", ref, MaxReadCells)
}

func values(cells []string) []any {
	out := make([]any, len(cells))
	for i, c := range cells {
		out[i] = typed(c)
	}
	return out
}
