package formats

import (
	"context"

	"convfiles/content/spreadsheet"
	"convfiles/files"
)

// SheetArgs name a file and one of its sheets ("" is the first).
type SheetArgs struct {
	File  string `json:"file"`
	Sheet string `json:"sheet,omitempty"`
}

// openBook opens a workbook or a CSV for reading. A CSV is streamed from
// its file at each read, not held in memory. close closes both.
func (e Env) openBook(ctx context.Context, op, file string) (b *spreadsheet.Book, name string, close func(), err error) {
	if name, err = e.Space.Resolve(ctx, file); err != nil {
		return nil, "", nil, err
	}
	f, info, err := e.Space.Open(ctx, name)
	if err != nil {
		return nil, "", nil, err
	}
	if info.Size > MaxInputBytes {
		f.Close()
		return nil, "", nil, files.E(op, files.KindTooLarge, name, "the file is "+files.FormatBytes(info.Size)+", more than the "+files.FormatBytes(MaxInputBytes)+" read at once", nil)
	}
	if b, err = spreadsheet.OpenReader(f, info.Size, name, spreadsheet.Limits{}); err != nil {
		f.Close()
		return nil, "", nil, refused(op, name, err)
	}
	return b, name, func() { b.Close(); f.Close() }, nil
}

// readBook runs read on a workbook opened for reading.
func readBook[R any](ctx context.Context, e Env, op, file string, read func(b *spreadsheet.Book) (R, error)) (R, error) {
	var zero R
	b, name, closeBook, err := e.openBook(ctx, op, file)
	if err != nil {
		return zero, err
	}
	defer closeBook()
	out, err := read(b)
	if err != nil {
		return zero, refused(op, name, err)
	}
	return out, nil
}

// ListSheets lists a workbook's sheets with their row and column counts.
func ListSheets(ctx context.Context, e Env, a FileArgs) ([]spreadsheet.SheetInfo, error) {
	return readBook(ctx, e, "spreadsheet.listSheets", a.File, func(b *spreadsheet.Book) ([]spreadsheet.SheetInfo, error) {
		return b.ListSheets(ctx)
	})
}

// SummaryArgs ask for a sheet's summary with up to Samples rows from the
// top and from the bottom (5 by default).
type SummaryArgs struct {
	SheetArgs
	Samples int `json:"samples,omitempty"`
}

// SheetSummary streams a sheet once and describes it.
func SheetSummary(ctx context.Context, e Env, a SummaryArgs) (spreadsheet.Summary, error) {
	return readBook(ctx, e, "spreadsheet.getSheetSummary", a.File, func(b *spreadsheet.Book) (spreadsheet.Summary, error) {
		return b.Summary(ctx, a.Sheet, a.Samples)
	})
}

// RangeArgs name a range of a sheet, like "A1:D50".
type RangeArgs struct {
	SheetArgs
	Range string `json:"range"`
}

// ReadRange returns a range's values as rows.
func ReadRange(ctx context.Context, e Env, a RangeArgs) ([][]any, error) {
	return readBook(ctx, e, "spreadsheet.readRange", a.File, func(b *spreadsheet.Book) ([][]any, error) {
		return b.ReadRange(ctx, a.Sheet, a.Range)
	})
}

// CellArgs name one cell of a sheet, like "B2".
type CellArgs struct {
	SheetArgs
	Cell string `json:"cell"`
}

// ReadCell returns one cell's value, formula and format.
func ReadCell(ctx context.Context, e Env, a CellArgs) (spreadsheet.Cell, error) {
	return readBook(ctx, e, "spreadsheet.readCell", a.File, func(b *spreadsheet.Book) (spreadsheet.Cell, error) {
		return b.ReadCell(ctx, a.Sheet, a.Cell)
	})
}

// Edited is what a spreadsheet edit returns: the file written and what
// the edit reports (the range written, the cells formatted).
type Edited struct {
	File  Written `json:"file"`
	Range string  `json:"range,omitempty"`
	Cells int     `json:"cells,omitempty"`
}

// editBook runs edit on a workbook and writes it back in place. With
// create, a workbook that does not exist yet is made, its first sheet
// named sheet.
func (e Env) editBook(ctx context.Context, op, file, sheet string, create bool, edit func(b *spreadsheet.Book) (Edited, error)) (Edited, error) {
	var out Edited
	w, err := e.edit(ctx, op, file, create, func(src source) ([]byte, error) {
		b, err := openOrNew(src, sheet)
		if err != nil {
			return nil, err
		}
		defer b.Close()
		if out, err = edit(b); err != nil {
			return nil, err
		}
		buf := buffer(len(src.data) + 4096)
		err = b.Save(buf)
		return buf.Bytes(), err
	})
	out.File = w
	return out, err
}

// openOrNew opens the workbook read, or makes one when there was none.
func openOrNew(src source, sheet string) (*spreadsheet.Book, error) {
	if src.data != nil {
		return spreadsheet.Open(src.data, src.name, spreadsheet.Limits{})
	}
	if spreadsheet.IsCSV(src.name) {
		return nil, spreadsheet.ErrCSVEdit
	}
	return spreadsheet.New(sheet)
}

// WriteRangeArgs write rows of values from the cell Start on.
type WriteRangeArgs struct {
	SheetArgs
	Start  string  `json:"start"`
	Values [][]any `json:"values"`
}

// WriteRange writes rows of values; a string beginning with "=" is a
// formula. A workbook that does not exist yet is created.
func WriteRange(ctx context.Context, e Env, a WriteRangeArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.writeRange", a.File, a.Sheet, true, func(b *spreadsheet.Book) (Edited, error) {
		r, err := b.WriteRange(a.Sheet, a.Start, a.Values)
		return Edited{Range: r}, err
	})
}

// WriteCellArgs write one cell: a value, or a formula, and a format.
type WriteCellArgs struct {
	SheetArgs
	Cell    string              `json:"cell"`
	Value   any                 `json:"value"`
	Formula string              `json:"formula,omitempty"`
	Format  *spreadsheet.Format `json:"format,omitempty"`
}

// WriteCell writes one cell. A workbook that does not exist yet is created.
func WriteCell(ctx context.Context, e Env, a WriteCellArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.writeCell", a.File, a.Sheet, true, func(b *spreadsheet.Book) (Edited, error) {
		return Edited{Range: a.Cell}, b.WriteCell(a.Sheet, a.Cell, a.Value, a.Formula, a.Format)
	})
}

// SheetNameArgs name a sheet to add or delete.
type SheetNameArgs struct {
	File string `json:"file"`
	Name string `json:"name"`
}

// AddSheet appends an empty sheet; a workbook that does not exist yet is
// created with it.
func AddSheet(ctx context.Context, e Env, a SheetNameArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.addSheet", a.File, a.Name, true, func(b *spreadsheet.Book) (Edited, error) {
		if b.Fresh() { // a new workbook made with its first sheet named a.Name
			return Edited{}, nil
		}
		return Edited{}, b.AddSheet(a.Name)
	})
}

// DeleteSheet removes a sheet.
func DeleteSheet(ctx context.Context, e Env, a SheetNameArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.deleteSheet", a.File, "", false, func(b *spreadsheet.Book) (Edited, error) {
		return Edited{}, b.DeleteSheet(a.Name)
	})
}

// RowsArgs insert Count rows after the row At, or delete Count rows from
// the row At on.
type RowsArgs struct {
	SheetArgs
	At    int `json:"at"`
	Count int `json:"count"`
}

// InsertRows inserts empty rows after a row (0: at the top).
func InsertRows(ctx context.Context, e Env, a RowsArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.insertRows", a.File, "", false, func(b *spreadsheet.Book) (Edited, error) {
		return Edited{}, b.InsertRows(a.Sheet, a.At, a.Count)
	})
}

// DeleteRows deletes rows from a row on.
func DeleteRows(ctx context.Context, e Env, a RowsArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.deleteRows", a.File, "", false, func(b *spreadsheet.Book) (Edited, error) {
		return Edited{}, b.DeleteRows(a.Sheet, a.At, a.Count)
	})
}

// FormatArgs give a range a format.
type FormatArgs struct {
	RangeArgs
	Format spreadsheet.Format `json:"format"`
}

// SetFormat formats a range.
func SetFormat(ctx context.Context, e Env, a FormatArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.setFormat", a.File, "", false, func(b *spreadsheet.Book) (Edited, error) {
		n, err := b.SetFormat(a.Sheet, a.Range, a.Format)
		return Edited{Range: a.Range, Cells: n}, err
	})
}

// AutoFilter puts filter buttons on a range.
func AutoFilter(ctx context.Context, e Env, a RangeArgs) (Edited, error) {
	return e.editBook(ctx, "spreadsheet.autoFilter", a.File, "", false, func(b *spreadsheet.Book) (Edited, error) {
		r, err := b.AutoFilter(a.Sheet, a.Range)
		return Edited{Range: r}, err
	})
}
