package spreadsheet_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/csv"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"convfiles/content"
	"convfiles/content/spreadsheet"
	"convfiles/internal/hostile"
	"convfiles/internal/needs"
	"convfiles/internal/samples"
)

var ctx = context.Background()

func open(t *testing.T, file string) *spreadsheet.Book {
	t.Helper()
	b, err := spreadsheet.Open(samples.Read(t, file), file, spreadsheet.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// budget.xlsx was written by LibreOffice from testdata/office/budget.fods.
func TestReadsAWorkbookLibreOfficeWrote(t *testing.T) {
	b := open(t, "budget.xlsx")
	sheets, err := b.ListSheets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []spreadsheet.SheetInfo{{Name: "Budget", Rows: 5, Columns: 4}, {Name: "Notes", Rows: 1, Columns: 1}}
	if !reflect.DeepEqual(sheets, want) {
		t.Fatalf("sheets %+v, want %+v", sheets, want)
	}
	s, err := b.Summary(ctx, "Budget", 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rows != 5 || s.Range != "A1:D5" || !reflect.DeepEqual(s.Headers, []any{"Item", "Quantity", "Price", "Total"}) ||
		len(s.Top) != 1 || s.Top[0].Row != 2 || len(s.Bottom) != 1 || !reflect.DeepEqual(s.Bottom[0], spreadsheet.Row{Row: 5, Values: []any{"Sum", 16.0, nil, 90.0}}) {
		t.Fatalf("summary %+v", s)
	}
	vals, err := b.ReadRange(ctx, "Budget", "B2:D3")
	if err != nil || !reflect.DeepEqual(vals, [][]any{{10.0, 2.5, 25.0}, {4.0, 1.25, 5.0}}) {
		t.Fatalf("range %v %v", vals, err)
	}
	c, err := b.ReadCell(ctx, "Budget", "D5")
	if err != nil || c.Value != 90.0 || c.Formula != "=SUM(D2:D4)" || c.Type != "number" {
		t.Fatalf("cell %+v %v", c, err)
	}
}

func TestCSVHasTheSameReadMethods(t *testing.T) {
	b := open(t, "sample.csv")
	if names := b.SheetNames(); !reflect.DeepEqual(names, []string{"sample"}) {
		t.Fatalf("sheets %v", names)
	}
	s, err := b.Summary(ctx, "", 5)
	if err != nil || !reflect.DeepEqual(s.Headers, []any{"id", "name", "total"}) || s.Top[0].Values[2] != 10.5 {
		t.Fatalf("summary %+v %v", s, err)
	}
	c, err := b.ReadCell(ctx, "sample", "B2")
	if err != nil || c.Value != "Ada" {
		t.Fatalf("cell %+v %v", c, err)
	}
	if _, err := b.WriteRange("", "A1", [][]any{{1.0}}); !errors.Is(err, content.ErrUnsupported) {
		t.Fatalf("writing a CSV: %v", err)
	}
}

// TestSheetWrittenHereReadsTheSameInLibreOffice writes values, formulas
// and formats, then has LibreOffice convert the workbook to CSV: the
// values and the formula results must be the ones written.
func TestSheetWrittenHereReadsTheSameInLibreOffice(t *testing.T) {
	soffice := needTool(t, "soffice")
	b, err := spreadsheet.New("Sales")
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{"Region", "Units", "Price", "Revenue"}, {"North", 12.0, 2.5, "=B2*C2"}, {"South", 7.0, 4.0, "=B3*C3"}}
	if _, err := b.WriteRange("Sales", "A1", rows); err != nil {
		t.Fatal(err)
	}
	if err := b.InsertRows("Sales", 1, 1); err != nil { // a blank row under the headers: formulas follow
		t.Fatal(err)
	}
	if err := b.DeleteRows("Sales", 2, 1); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteCell("Sales", "D4", nil, "SUM(D2:D3)", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetFormat("Sales", "A1:D1", spreadsheet.Format{Bold: ptr(true), FillColor: "#FFFF00"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.AutoFilter("Sales", "A1:D3"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sales.xlsx"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "-env:UserInstallation=file://"+dir+"/profile", "--headless", "--convert-to", "csv", "--outdir", dir, filepath.Join(dir, "sales.xlsx"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	f, err := os.ReadFile(filepath.Join(dir, "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"Region", "Units", "Price", "Revenue"}, {"North", "12", "2.5", "30"}, {"South", "7", "4", "28"}, {"", "", "", "58"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("LibreOffice reads\n%q\nwant\n%q", got, want)
	}
	// convfiles reads its own results without recalculating.
	again, _ := spreadsheet.Open(buf.Bytes(), "sales.xlsx", spreadsheet.Limits{})
	vals, err := again.ReadRange(ctx, "Sales", "D2:D4")
	if err != nil || !reflect.DeepEqual(vals, [][]any{{30.0}, {28.0}, {58.0}}) {
		t.Fatalf("formula results %v %v", vals, err)
	}
	c, _ := again.ReadCell(ctx, "Sales", "A1")
	if c.Format == nil || c.Format.Bold == nil || !*c.Format.Bold || c.Format.FillColor != "#FFFF00" {
		t.Fatalf("header format %+v", c.Format)
	}
}

func ptr[T any](v T) *T { return &v }

func needTool(t *testing.T, name string) string {
	t.Helper()
	return needs.Program(t, needs.LibreOffice, name)
}

// zipOf builds an XLSX-shaped zip whose one worksheet is n bytes of
// zeros: a zip bomb that claims its true size.
func zipOf(t *testing.T, n int) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	zero := make([]byte, 1<<20)
	for i := 0; i < n>>20; i++ {
		w.Write(zero)
	}
	zw.Close()
	return buf.Bytes()
}

func TestZipBombIsRefusedBeforeInflating(t *testing.T) {
	bomb := zipOf(t, 512<<20)
	start := time.Now()
	_, err := spreadsheet.Open(bomb, "bomb.xlsx", spreadsheet.Limits{})
	if !errors.Is(err, content.ErrTooLarge) {
		t.Fatalf("a %d-byte zip that inflates to 512 MiB: %v", len(bomb), err)
	}
	t.Logf("refused in %v: %v", time.Since(start), err)
}

func TestMalformedWorkbooksAreRefused(t *testing.T) {
	good := samples.Read(t, "budget.xlsx")
	var garbled bytes.Buffer
	zw := zip.NewWriter(&garbled)
	for _, name := range []string{"[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"} {
		w, _ := zw.Create(name)
		w.Write([]byte("<not xml"))
	}
	zw.Close()
	for name, data := range map[string][]byte{
		"truncated": good[:len(good)/2],
		"garbled":   garbled.Bytes(),
		"not a zip": append([]byte("PK\x03\x04"), bytes.Repeat([]byte{0xff}, 100)...),
	} {
		start := time.Now()
		b, err := spreadsheet.Open(data, "x.xlsx", spreadsheet.Limits{})
		if err == nil {
			_, err = b.Summary(ctx, "", 5)
		}
		if !errors.Is(err, content.ErrDamaged) {
			t.Errorf("%s workbook: %v, want a damaged-file refusal", name, err)
		}
		t.Logf("%s: refused in %v: %v", name, time.Since(start), err)
	}
}

// TestLimitsAreEnforced tries each limit of a workbook: its parts, the
// size it may be edited at, and the cells one read returns.
func TestLimitsAreEnforced(t *testing.T) {
	data := samples.Read(t, "budget.xlsx")
	few := spreadsheet.DefaultLimits()
	few.MaxParts = 2
	if _, err := spreadsheet.Open(data, "b.xlsx", few); !errors.Is(err, content.ErrTooLarge) {
		t.Errorf("a workbook of more parts than allowed: %v", err)
	}
	small := spreadsheet.DefaultLimits()
	small.MaxEditable = 10
	b, err := spreadsheet.Open(data, "b.xlsx", small)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.WriteRange("Budget", "A1", [][]any{{1.0}}); !errors.Is(err, content.ErrTooLarge) {
		t.Errorf("editing a workbook over MaxEditable: %v", err)
	}
	if c, err := b.ReadCell(ctx, "Budget", "D5"); err != nil || c.Value != 90.0 {
		t.Errorf("reading a cell of it still streams: %+v %v", c, err)
	}
	if _, err := b.ReadRange(ctx, "Budget", "A1:Z5000"); !errors.Is(err, content.ErrTooLarge) {
		t.Errorf("a range of 130,000 cells: %v", err)
	}
}

// TestZipThatLiesAboutItsSizeIsRefused: a part that inflates past the size
// its directory claims is caught while it is read, not believed. The same
// workbook with honest sizes opens: the lie alone is refused.
func TestZipThatLiesAboutItsSizeIsRefused(t *testing.T) {
	good := samples.Read(t, "budget.xlsx")
	for _, lie := range []bool{false, true} {
		b, err := spreadsheet.Open(rebuilt(t, good, lie), "liar.xlsx", spreadsheet.Limits{})
		if err == nil {
			_, err = b.Summary(ctx, "Budget", 5)
		}
		if lie && !errors.Is(err, content.ErrDamaged) {
			t.Fatalf("a sheet claiming 100 bytes that inflates to 6 MiB: %v", err)
		}
		if !lie && err != nil {
			t.Fatalf("the same workbook with honest sizes: %v", err)
		}
	}
}

// rebuilt copies an XLSX, padding its first sheet to 6 MiB with an XML
// comment; with lie, the sheet's directory entry claims 100 bytes.
func rebuilt(t *testing.T, xlsx []byte, lie bool) []byte {
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		part, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name != "xl/worksheets/sheet1.xml" {
			w, _ := zw.Create(f.Name)
			w.Write(part)
			continue
		}
		end := bytes.LastIndex(part, []byte("</worksheet>"))
		padded := append(append(append([]byte{}, part[:end]...), "<!--"+strings.Repeat(" ", 6<<20)+"-->"...), part[end:]...)
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestCompression)
		fw.Write(padded)
		fw.Close()
		claimed := uint64(len(padded))
		if lie {
			claimed = 100
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(padded),
			CompressedSize64: uint64(comp.Len()), UncompressedSize64: claimed})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(comp.Bytes())
	}
	zw.Close()
	return buf.Bytes()
}

// TestSpillingWorkbookIsRefused: a workbook that passes the inflation
// ratio but whose sheets would be written out as 300 MB of temporary
// files is refused before excelize opens it.
func TestSpillingWorkbookIsRefused(t *testing.T) {
	data := hostile.SpillingXLSX(300<<20, 2<<20)
	_, err := spreadsheet.Open(data, "big.xlsx", spreadsheet.Limits{})
	if !errors.Is(err, content.ErrTooLarge) || !strings.Contains(err.Error(), "temporary files") {
		t.Fatalf("%d bytes: %v", len(data), err)
	}
}
