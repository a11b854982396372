package spreadsheet

import (
	"context"
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"

	"convfiles/content"
	"convfiles/internal/bytesize"
)

// rowSource walks a sheet's rows in order, holding one at a time.
type rowSource interface {
	// next returns the next row with its 1-based number, false at the end.
	next() (num int, cells []string, ok bool)
	err() error
	close()
}

// rows opens the named sheet ("" is the first) for streaming.
func (b *Book) rows(sheet string) (rowSource, string, error) {
	name, err := b.sheetName(sheet)
	if err != nil {
		return nil, "", err
	}
	if b.csv != nil {
		return b.csv.rows(), name, nil
	}
	var r *excelize.Rows
	err = content.Guard("the sheet "+quote(name), func() (err error) {
		r, err = b.x.Rows(name)
		return err
	})
	if err != nil {
		return nil, "", damagedSheet(name, err)
	}
	return &xlsxRows{r: r, raw: true}, name, nil
}

// sheetName resolves "" to the first sheet and checks that a name exists.
func (b *Book) sheetName(sheet string) (string, error) {
	names := b.SheetNames()
	if sheet == "" {
		return names[0], nil
	}
	for _, n := range names {
		if n == sheet {
			return n, nil
		}
	}
	return "", content.Refuse(content.ErrMissing, "there is no sheet %s: the sheets are %s", quote(sheet), quoteList(names))
}

// SheetNames lists the sheets in workbook order.
func (b *Book) SheetNames() []string {
	if b.csv != nil {
		return []string{b.csv.name}
	}
	return b.x.GetSheetList()
}

type xlsxRows struct {
	r   *excelize.Rows
	raw bool
	n   int
	e   error
}

func (x *xlsxRows) next() (int, []string, bool) {
	if x.e != nil {
		return 0, nil, false
	}
	var cells []string
	ok := false
	x.e = content.Guard("the sheet", func() error {
		if !x.r.Next() {
			return x.r.Error()
		}
		x.n++
		ok = true
		var err error
		cells, err = x.r.Columns(excelize.Options{RawCellValue: x.raw})
		return err
	})
	return x.n, cells, ok && x.e == nil
}

func (x *xlsxRows) err() error { return x.e }
func (x *xlsxRows) close()     { _ = x.r.Close() }

// walk calls fn with every row of a sheet up to last (0: all), checking
// ctx every 1024 rows, and returns the last row number seen with data.
func walk(ctx context.Context, src rowSource, last int, fn func(num int, cells []string) bool) (int, error) {
	defer src.close()
	lastData := 0
	for i := 0; ; i++ {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		num, cells, ok := src.next()
		if !ok {
			break
		}
		if last > 0 && num > last {
			break
		}
		if len(cells) > 0 {
			lastData = num
		}
		if !fn(num, cells) {
			break
		}
	}
	if err := src.err(); err != nil {
		return 0, damagedSheet("", err)
	}
	return lastData, nil
}

func damagedSheet(name string, err error) error {
	if _, ok := err.(*content.Refusal); ok {
		return err
	}
	if name != "" {
		return content.Refuse(content.ErrDamaged, "the sheet %s is damaged and cannot be read (%v)", quote(name), err)
	}
	return content.Refuse(content.ErrDamaged, "the sheet is damaged and cannot be read (%v)", err)
}

func quote(s string) string { return strconv.Quote(s) }

func quoteList(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += quote(n)
	}
	return s
}

func byteSize(n int64) string { return bytesize.Format(n) }

// Records streams the rows of a sheet ("" is the first) as text to each,
// one row at a time, empty rows left out; a sheet of more than max rows
// is refused at the first row past it.
func (b *Book) Records(ctx context.Context, sheet string, max int, each func(cells []string) error) error {
	src, name, err := b.rows(sheet)
	if err != nil {
		return err
	}
	defer src.close()
	for n := 0; ; n++ {
		_, cells, ok := src.next()
		if !ok {
			return src.err()
		}
		if n == max {
			return fmt.Errorf("the sheet %s has more than %d rows", quote(name), max)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := each(cells); err != nil {
			return err
		}
	}
}
