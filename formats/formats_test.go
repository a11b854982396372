package formats_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"sync"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/storetest"
)

var ctx = context.Background()

// env opens a conversation of an indexed store holding the samples named.
func env(t *testing.T, names ...string) formats.Env {
	t.Helper()
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{})
	storetest.PutSamples(t, store, "c1", names...)
	sp, err := store.Space("c1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return formats.Env{Space: sp}
}

func record(t *testing.T, e formats.Env, name string) files.Record {
	t.Helper()
	rec, err := e.Space.Record(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestNewFilesRecordWhereTheyCameFrom: every operation that makes a file
// records source "derived" and the ID of its source.
func TestNewFilesRecordWhereTheyCameFrom(t *testing.T) {
	e := env(t, "sample.jpg", "sample.pdf", "form.pdf")
	jpg, pdf := record(t, e, "sample.jpg"), record(t, e, "sample.pdf")
	check := func(w formats.Written, err error, from files.Record) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		rec := record(t, e, w.Name)
		if rec.Source != files.SourceDerived || rec.DerivedFrom != from.ID || w.ID != rec.ID {
			t.Errorf("%s: source %q derived from %q, want derived from %s (%s)", w.Name, rec.Source, rec.DerivedFrom, from.ID, from.Name)
		}
	}
	r, err := formats.Resize(ctx, e, formats.ResizeArgs{File: jpg.ID, Width: 32})
	check(r.Written, err, jpg)
	if r.Name != "sample-32x24.jpg" || r.Width != 32 || r.Height != 24 {
		t.Errorf("resize wrote %+v", r)
	}
	c, err := formats.Convert(ctx, e, formats.ConvertArgs{File: "sample.jpg", Format: "webp"})
	check(c.Written, err, jpg)
	if c.Name != "sample.webp" || c.MIME != "image/webp" {
		t.Errorf("convert wrote %+v", c)
	}
	m, err := formats.Merge(ctx, e, formats.MergeArgs{Files: []string{"sample.pdf", "form.pdf"}, Output: "both.pdf"})
	check(m.File, err, pdf)
	parts, err := formats.SplitPages(ctx, e, formats.SplitArgs{File: "both.pdf", Ranges: []string{"1-2", "3"}})
	if err != nil || len(parts) != 2 || parts[0].Name != "both-p1-2.pdf" {
		t.Fatalf("split: %+v %v", parts, err)
	}
	check(parts[1], nil, record(t, e, "both.pdf"))
	if rec := record(t, e, "sample.jpg"); rec.Source != files.SourceUpload || rec.Version != 1 {
		t.Errorf("the source was changed: %+v", rec)
	}
}

// TestEditsInPlaceKeepVersions: an edit replaces the file under its ID and
// keeps what it replaced.
func TestEditsInPlaceKeepVersions(t *testing.T) {
	e := env(t, "form.pdf", "budget.xlsx")
	for _, edit := range []func() error{
		func() error {
			_, err := formats.FillForm(ctx, e, formats.FillArgs{File: "form.pdf", Fields: map[string]any{"city": "Paris"}})
			return err
		},
		func() error {
			_, err := formats.AddPage(ctx, e, formats.AddPageArgs{File: "form.pdf"})
			return err
		},
	} {
		if err := edit(); err != nil {
			t.Fatal(err)
		}
	}
	rec := record(t, e, "form.pdf")
	vs, err := e.Space.Versions(ctx, rec.ID)
	if err != nil || len(vs) != 2 || rec.Version != 3 || rec.Source != files.SourceUpload {
		t.Fatalf("after two edits: %+v, versions %+v %v", rec, vs, err)
	}
	if _, err := formats.WriteCell(ctx, e, formats.WriteCellArgs{SheetArgs: formats.SheetArgs{File: "budget.xlsx", Sheet: "Budget"}, Cell: "B2", Value: 20.0}); err != nil {
		t.Fatal(err)
	}
	got, err := formats.ReadCell(ctx, e, formats.CellArgs{SheetArgs: formats.SheetArgs{File: "budget.xlsx", Sheet: "Budget"}, Cell: "D5"})
	if err != nil || got.Value != 115.0 {
		t.Fatalf("the total after the edit: %+v %v", got, err)
	}
	if vs, _ := e.Space.Versions(ctx, record(t, e, "budget.xlsx").ID); len(vs) != 1 {
		t.Fatalf("the workbook kept %d versions", len(vs))
	}
}

// TestConcurrentEditsAllLand: editors of one workbook each write a cell at
// once; every cell is there in the end, none undone by another's write.
func TestConcurrentEditsAllLand(t *testing.T) {
	e := env(t)
	const editors = 6
	var wg sync.WaitGroup
	errs := make(chan error, editors)
	for i := range editors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := formats.WriteCell(ctx, e, formats.WriteCellArgs{SheetArgs: formats.SheetArgs{File: "shared.xlsx"},
				Cell: fmt.Sprintf("A%d", i+1), Value: float64(i + 1)})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	vals, err := formats.ReadRange(ctx, e, formats.RangeArgs{SheetArgs: formats.SheetArgs{File: "shared.xlsx"}, Range: "A1:A6"})
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range vals {
		if row[0] != float64(i+1) {
			t.Errorf("A%d is %v: an edit was lost", i+1, row[0])
		}
	}
}

// TestHostileNamesAndFilesAreRefused: an output name that leaves the
// conversation is refused and writes nothing; a bomb or a damaged file
// is a clear error of the right kind.
func TestHostileNamesAndFilesAreRefused(t *testing.T) {
	e := env(t, "sample.png", "sample.pdf", "random.bin")
	before, _ := e.Space.List(ctx)
	for what, err := range map[string]error{
		"resize to ../": func() error {
			_, err := formats.Resize(ctx, e, formats.ResizeArgs{File: "sample.png", Width: 8, ImageOutput: formats.ImageOutput{Output: "../escape.png"}})
			return err
		}(),
		"split to an absolute name": func() error {
			_, err := formats.SplitPages(ctx, e, formats.SplitArgs{File: "sample.pdf", Ranges: []string{"1"}, Names: []string{"/etc/x.pdf"}})
			return err
		}(),
		"merge into a folder name": func() error {
			_, err := formats.Merge(ctx, e, formats.MergeArgs{Files: []string{"sample.pdf", "sample.pdf"}, Output: "a/../../b.pdf"})
			return err
		}(),
	} {
		if files.KindOf(err) != files.KindInvalid {
			t.Errorf("%s: %v, want an invalid-name error", what, err)
		}
	}
	if after, _ := e.Space.List(ctx); len(after) != len(before) {
		t.Errorf("refused operations wrote files: %d before, %d after", len(before), len(after))
	}
	ihdr := []byte("IHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x06\x00\x00\x00") // 100000×100000 RGBA
	bomb := binary.BigEndian.AppendUint32(append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), ihdr...), crc32.ChecksumIEEE(ihdr))
	e.Space.WriteBytes(ctx, "bomb.png", bomb, files.WriteOptions{})
	if _, err := formats.ToBase64(ctx, e, formats.Base64Args{File: "bomb.png"}); files.KindOf(err) != files.KindTooLarge {
		t.Errorf("a PNG claiming 100000×100000 pixels: %v", err)
	}
	for what, err := range map[string]error{
		"random bytes as a PDF": func() error { _, err := formats.PDFInfo(ctx, e, formats.FileArgs{File: "random.bin"}); return err }(),
		"random bytes as a workbook": func() error {
			_, err := formats.ListSheets(ctx, e, formats.FileArgs{File: "random.bin"})
			return err
		}(),
		"a missing file": func() error {
			_, err := formats.ReadRange(ctx, e, formats.RangeArgs{SheetArgs: formats.SheetArgs{File: "nope.xlsx"}, Range: "A1"})
			return err
		}(),
	} {
		if err == nil || files.KindOf(err) == files.KindInternal {
			t.Errorf("%s: %v, want a clear refusal", what, err)
		}
	}
	if _, err := formats.DeletePage(ctx, e, formats.PageArgs{File: "sample.pdf", Page: 9}); files.KindOf(err) != files.KindInvalid {
		t.Errorf("page 9 of 2: %v", err)
	}
}
