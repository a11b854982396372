package spreadsheet

import (
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/xuri/excelize/v2"
)

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
			return excelize.OpenFile(link, opts)
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
