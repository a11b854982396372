package spreadsheet

import (
	"context"
	"convfiles/internal/samples"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestOpenFileIsReadInPlace: a workbook given as an open file is read by
// excelize from the file (through its descriptor), not copied whole into
// memory first, and reads the same as the workbook given as bytes — even
// after the name is replaced by another file, as a write replaces it.
func TestOpenFileIsReadInPlace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the descriptor's /proc link is Linux's; elsewhere the file is read whole, as bytes are")
	}
	data := samples.Read(t, "budget.xlsx")
	path := filepath.Join(t.TempDir(), "budget.xlsx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A writer replaces the name with a new file while the old one is open.
	if err := os.WriteFile(path+".new", []byte("not a workbook"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	fromFile, err := OpenReader(f, int64(len(data)), "budget.xlsx", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Close()
	if !strings.HasPrefix(fromFile.x.Path, "/proc/self/fd/") {
		t.Errorf("excelize opened %q, want the descriptor's /proc link", fromFile.x.Path)
	}
	fromBytes, err := Open(data, "budget.xlsx", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer fromBytes.Close()
	a, errA := fromFile.Summary(context.Background(), "", 5)
	b, errB := fromBytes.Summary(context.Background(), "", 5)
	if errA != nil || errB != nil || !reflect.DeepEqual(a, b) || a.Rows == 0 {
		t.Errorf("from the open file: %+v %v\nfrom bytes: %+v %v", a, errA, b, errB)
	}
}
