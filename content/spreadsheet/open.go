// Package spreadsheet reads and edits workbooks for agents: XLSX through
// excelize, and CSV (and TSV) with the same read methods. Reads stream: a
// summary or a range of a 200,000-row sheet walks the rows with excelize's
// row iterator and holds only the rows it returns. Edits load the workbook,
// change it and write it out whole, so they are refused for sheets too
// large to hold. A zip bomb is refused from its directory, before anything
// is inflated.
//
// It must never import files, the engine or a door: it works on bytes.
package spreadsheet

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"

	"convfiles/content"

	"github.com/xuri/excelize/v2"
)

// Limits bound what opening a workbook may cost.
type Limits struct {
	// MaxUnzipped is the most the XLSX's parts may inflate to, in all.
	MaxUnzipped int64
	// MaxRatio is the largest inflation ratio allowed above FreeUnzipped:
	// deflate reaches about 1000:1 only on bombs.
	MaxRatio     int64
	FreeUnzipped int64
	// MaxEditable is the most the worksheets may inflate to for a workbook
	// to be edited: an edit holds every cell in memory.
	MaxEditable int64
	// MaxParts is the most parts (zip entries) a workbook may have.
	MaxParts int
	// MaxSpilled is the most the worksheets larger than spillAbove may
	// inflate to in all: excelize writes each of them to a temporary file
	// when the workbook opens.
	MaxSpilled int64
}

// spillAbove is the size past which excelize keeps a worksheet in a
// temporary file instead of memory.
const spillAbove = 16 << 20

// DefaultLimits are the limits Open uses when given none.
func DefaultLimits() Limits {
	return Limits{
		MaxUnzipped:  1 << 30,
		MaxRatio:     200,
		FreeUnzipped: 32 << 20,
		MaxEditable:  128 << 20,
		MaxParts:     10_000,
		MaxSpilled:   256 << 20,
	}
}

// Book is an open workbook: an XLSX or a CSV (one sheet).
type Book struct {
	x        *excelize.File // nil for a CSV
	csv      *csvSheet
	sheetXML int64 // the worksheets' inflated size
	lim      Limits
	changed  bool // an edit was made: formula results are refreshed on Save
	fresh    bool // made by New
}

// IsCSV tells whether name is read as delimited text rather than a
// workbook: .csv and .tsv files.
func IsCSV(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".csv" || ext == ".tsv"
}

// Open reads a workbook held in memory; see OpenReader.
func Open(data []byte, name string, lim Limits) (*Book, error) {
	return OpenReader(bytes.NewReader(data), int64(len(data)), name, lim)
}

// OpenReader reads a workbook of size bytes from r. name chooses between
// CSV (.csv, .tsv) and XLSX; an XLSX is recognized by its bytes whatever
// its name. A CSV is streamed from r at each read, never held; r must
// stay readable until the Book is closed. An XLSX is read whole by
// excelize, after its zip directory has passed the limits.
func OpenReader(r io.ReaderAt, size int64, name string, lim Limits) (*Book, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits()
	}
	magic := make([]byte, 4)
	n, _ := r.ReadAt(magic, 0)
	if !bytes.Equal(magic[:n], []byte("PK\x03\x04")) {
		if IsCSV(name) {
			return &Book{csv: newCSVSheet(r, size, name), lim: lim}, nil
		}
		return nil, content.Refuse(content.ErrUnsupported,
			"%s is not a spreadsheet convfiles can read: XLSX workbooks and CSV or TSV files are supported", quote(name))
	}
	sheetXML, err := checkZip(r, size, lim)
	if err != nil {
		return nil, err
	}
	b := &Book{sheetXML: sheetXML, lim: lim}
	err = content.Guard("the workbook", func() (err error) {
		b.x, err = openExcelize(r, size, excelize.Options{
			UnzipSizeLimit:    lim.MaxUnzipped,
			UnzipXMLSizeLimit: spillAbove,
		})
		return err
	})
	if err != nil {
		if _, ok := err.(*content.Refusal); ok {
			return nil, err
		}
		return nil, content.Refuse(content.ErrDamaged, "the workbook is damaged and cannot be read (%v)", err)
	}
	if len(b.x.GetSheetList()) == 0 {
		b.Close()
		return nil, content.Refuse(content.ErrDamaged, "the workbook has no sheets")
	}
	return b, nil
}

// openExcelize hands the workbook to excelize. excelize.OpenReader reads
// its input whole into a growing buffer (twice the file at its peak)
// before unzipping it, while excelize.OpenFile reads the zip's parts in
// place. An open file on Linux is therefore given to OpenFile by its
// descriptor's /proc link, which names the file already opened (through
// the conversation's root), not a path that could be swapped; and as
// convfiles never changes a file in place (a write is a new file renamed
// over the name), excelize reads the parts checkZip checked. Anything
// else is read by OpenReader.
func openExcelize(r io.ReaderAt, size int64, opts excelize.Options) (*excelize.File, error) {
	if f, ok := r.(*os.File); ok && runtime.GOOS == "linux" {
		link := "/proc/self/fd/" + strconv.FormatUint(uint64(f.Fd()), 10)
		if st, err := os.Stat(link); err == nil && sameFile(st, f) {
			x, err := excelize.OpenFile(link, opts)
			if !errors.Is(err, fs.ErrPermission) {
				return x, err
			}
			// A process that may open no path (a Landlock-confined
			// worker) reads from the descriptor instead.
		}
	}
	return excelize.OpenReader(io.NewSectionReader(r, 0, size), opts)
}

// sameFile tells whether the /proc link resolved to the open file (it
// cannot be otherwise unless /proc is not the process's own).
func sameFile(st os.FileInfo, f *os.File) bool {
	own, err := f.Stat()
	return err == nil && os.SameFile(st, own)
}

// checkZip reads the zip's directory and refuses a bomb: too many parts,
// or parts that claim to inflate past the limits. archive/zip fails a part
// that inflates past what it claims, so the claims bind. It returns the
// worksheets' inflated size.
func checkZip(r io.ReaderAt, size int64, lim Limits) (int64, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return 0, content.Refuse(content.ErrDamaged, "the workbook is damaged: it is not a valid zip archive (%v)", err)
	}
	if len(zr.File) > lim.MaxParts {
		return 0, content.Refuse(content.ErrTooLarge, "the workbook has %d parts, more than the %d convfiles opens", len(zr.File), lim.MaxParts)
	}
	var total, sheets, spilled int64
	for _, f := range zr.File {
		n := int64(f.UncompressedSize64)
		if n < 0 || total+n < total {
			return 0, content.Refuse(content.ErrTooLarge, "the workbook claims an impossible size: it looks like a zip bomb")
		}
		total += n
		if strings.HasPrefix(strings.ToLower(f.Name), "xl/worksheets/") {
			sheets += n
			if n > spillAbove {
				spilled += n
			}
		}
	}
	if lim.MaxSpilled > 0 && spilled > lim.MaxSpilled {
		return 0, content.Refuse(content.ErrTooLarge,
			"the workbook's large sheets would inflate to %s of temporary files, more than the %s convfiles writes for one workbook",
			byteSize(spilled), byteSize(lim.MaxSpilled))
	}
	allowed := min(lim.MaxUnzipped, max(lim.FreeUnzipped, lim.MaxRatio*size))
	if total > allowed {
		return 0, content.Refuse(content.ErrTooLarge,
			"the workbook would inflate from %s to %s, more than the %s convfiles allows for it: it looks like a zip bomb",
			byteSize(size), byteSize(total), byteSize(allowed))
	}
	// excelize reads a part that inflates past its claimed size, or fails
	// its checksum, as a shorter part without an error: a sheet would
	// silently lose rows. Each part is inflated once here, within the
	// claims the limits accepted, and archive/zip checks both.
	for _, f := range zr.File {
		if err := verifyPart(f); err != nil {
			return 0, content.Refuse(content.ErrDamaged, "the workbook is damaged: its part %s does not match its directory (%v)", f.Name, err)
		}
	}
	return sheets, nil
}

func verifyPart(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	_, err = io.Copy(io.Discard, rc)
	return err
}

// Close releases the workbook and its temporary files.
func (b *Book) Close() error {
	if b.x != nil {
		return b.x.Close()
	}
	return nil
}

// Save writes the workbook as XLSX.
func (b *Book) Save(w io.Writer) error {
	if b.x == nil {
		return ErrCSVEdit
	}
	if b.changed {
		b.refresh()
	}
	_, err := b.x.WriteTo(w)
	return err
}

// editable refuses an edit of a CSV, or of a workbook too large to hold.
func (b *Book) editable() error {
	if b.x == nil {
		return ErrCSVEdit
	}
	if b.sheetXML > b.lim.MaxEditable {
		return content.Refuse(content.ErrTooLarge,
			"the workbook's sheets hold %s of cells, more than the %s convfiles edits in place; read it with readRange or getSheetSummary, and write the result to a new workbook",
			byteSize(b.sheetXML), byteSize(b.lim.MaxEditable))
	}
	return nil
}

// ErrCSVEdit refuses an edit of a CSV file.
var ErrCSVEdit = content.Refuse(content.ErrUnsupported,
	"a CSV file is read-only here: change it with the text methods (files.writeText, files.replaceLines), or write an .xlsx workbook")
