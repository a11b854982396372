package formats_test

import (
	"bytes"
	"image"
	_ "image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/storetest"

	"github.com/disintegration/imaging"
	"github.com/ledongthuc/pdf"
	"github.com/xuri/excelize/v2"
)

// The three benchmarks of issue 6 each run a format operation as a script
// or MCP call runs it (read from the conversation's store, work, write the
// result durably and index it) next to the underlying library called
// directly on the same file, in the same run. Each reports peak-MiB: how
// far the process's peak resident memory rose above its resting size
// while the benchmark ran (Linux's VmHWM, reset through clear_refs).
//
//	go test ./formats -run '^$' -bench 'Summary200k|ExtractText100|Resize4000' -benchtime 3x -count 3

// BenchmarkSummary200k summarizes a 200,000-row workbook. The baseline
// opens it with excelize and walks every row with its streaming iterator,
// keeping the first rows and the last ones, as a summary does.
func BenchmarkSummary200k(b *testing.B) {
	path := benchInput(b, "orders-200k.xlsx", func(p string) error { return writeWorkbook(p, 200_000) })
	b.Run("convfiles", func(b *testing.B) {
		e := benchEnv(b, path, "orders.xlsx")
		measure(b, func() {
			s, err := formats.SheetSummary(ctx, e, formats.SummaryArgs{SheetArgs: formats.SheetArgs{File: "orders.xlsx"}})
			if err != nil || s.Rows != 200_001 {
				b.Fatalf("summary: %d rows, %v", s.Rows, err)
			}
		})
	})
	b.Run("excelize", func(b *testing.B) {
		measure(b, func() {
			f, err := excelize.OpenFile(path)
			if err != nil {
				b.Fatal(err)
			}
			rows, err := f.Rows("Sheet1")
			if err != nil {
				b.Fatal(err)
			}
			var top, bottom [][]string
			n := 0
			for rows.Next() {
				cells, err := rows.Columns()
				if err != nil {
					b.Fatal(err)
				}
				if n++; n <= 6 {
					top = append(top, cells)
				}
				if bottom = append(bottom, cells); len(bottom) > 5 {
					bottom = bottom[1:]
				}
			}
			rows.Close()
			f.Close()
			if n != 200_001 || len(top) != 6 {
				b.Fatalf("walked %d rows", n)
			}
		})
	})
}

// BenchmarkExtractText100 reads the text of every page of a 100-page PDF.
// The baseline opens it with ledongthuc/pdf and asks each page for its
// plain text.
func BenchmarkExtractText100(b *testing.B) {
	path := benchInput(b, "report-100.pdf", func(p string) error { return writeTextPDF(p, 100) })
	b.Run("convfiles", func(b *testing.B) {
		e := benchEnv(b, path, "report.pdf")
		measure(b, func() {
			t, err := formats.ExtractText(ctx, e, formats.TextArgs{File: "report.pdf"})
			if err != nil || len(t.Pages) != 100 || !strings.Contains(t.Pages[99].Text, "Page 100, line 45") {
				b.Fatalf("extract: %d pages, %v", len(t.Pages), err)
			}
		})
	})
	b.Run("ledongthuc", func(b *testing.B) {
		measure(b, func() {
			f, r, err := pdf.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			var last string
			for p := 1; p <= r.NumPage(); p++ {
				if last, err = r.Page(p).GetPlainText(nil); err != nil {
					b.Fatal(err)
				}
			}
			f.Close()
			if !strings.Contains(last, "Page 100, line 45") {
				b.Fatalf("last page: %.80q", last)
			}
		})
	})
}

// BenchmarkResize4000 resizes a 4000×3000 JPEG to 1024 wide and writes it
// as a JPEG. The baseline reads the file, decodes it with imaging (EXIF
// orientation on, as convfiles does), resizes with the same Lanczos
// filter, encodes at the same quality and writes the file.
func BenchmarkResize4000(b *testing.B) {
	path := benchInput(b, "photo-4000x3000.jpg", func(p string) error { return writePhoto(p, 4000, 3000) })
	b.Run("convfiles", func(b *testing.B) {
		e := benchEnv(b, path, "photo.jpg")
		measure(b, func() {
			w, err := formats.Resize(ctx, e, formats.ResizeArgs{File: "photo.jpg", Width: 1024,
				ImageOutput: formats.ImageOutput{Output: "small.jpg"}})
			if err != nil || w.Width != 1024 || w.Height != 768 {
				b.Fatalf("resize: %+v %v", w, err)
			}
		})
	})
	for name, args := range map[string][]string{
		// libvips shrinks a JPEG while it decodes it (the anchor of issue 39).
		"vipsthumbnail": {"vipsthumbnail", path, "-s", "1024", "-o", "%s[Q=85]"},
		"imagemagick":   {"convert-im6.q16", path, "-resize", "1024x", "-quality", "85", "%s"},
	} {
		b.Run(name, func(b *testing.B) {
			exe, err := exec.LookPath(args[0])
			if err != nil {
				b.Skipf("%s is the baseline here: install it (Debian: libvips-tools, imagemagick)", args[0])
			}
			out := filepath.Join(b.TempDir(), "small.jpg")
			cmdArgs := slices.Clone(args[1:])
			for i, a := range cmdArgs {
				cmdArgs[i] = strings.ReplaceAll(a, "%s", out)
			}
			measure(b, func() {
				if msg, err := exec.Command(exe, cmdArgs...).CombinedOutput(); err != nil {
					b.Fatalf("%s: %v %s", name, err, msg)
				}
			})
		})
	}
	b.Run("imaging", func(b *testing.B) {
		out := filepath.Join(b.TempDir(), "small.jpg")
		measure(b, func() {
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			img, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
			if err != nil {
				b.Fatal(err)
			}
			small := imaging.Resize(img, 1024, 0, imaging.Lanczos)
			var buf bytes.Buffer
			if err := imaging.Encode(&buf, small, imaging.JPEG, imaging.JPEGQuality(85)); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// benchEnv opens a conversation of an indexed store on disk holding the
// file at path under name.
func benchEnv(b *testing.B, path, name string) formats.Env {
	store, _ := storetest.Open(b, filepath.Join(b.TempDir(), "files"), engine.Options{})
	sp, err := store.Space("bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sp.Close() })
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := sp.WriteBytes(ctx, name, data, files.WriteOptions{Source: files.SourceUpload}); err != nil {
		b.Fatal(err)
	}
	return formats.Env{Space: sp}
}

// measure times op and reports how far the peak resident memory rose
// above the resting size while it ran.
func measure(b *testing.B, op func()) {
	runtime.GC()
	debug.FreeOSMemory()
	rest := procStatus(b, "VmRSS")
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatalf("cannot reset the peak memory: %v", err)
	}
	b.ResetTimer()
	for b.Loop() {
		op()
	}
	b.StopTimer()
	b.ReportMetric(float64(procStatus(b, "VmHWM")-rest)/(1<<20), "peak-MiB")
}

// procStatus reads a size in bytes from /proc/self/status.
func procStatus(b *testing.B, key string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatalf("no /proc: %v", err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	b.Fatalf("no %s in /proc/self/status", key)
	return 0
}

// BenchmarkImageInfo reads the size and format of the 4000×3000 JPEG
// (4.6 MB), as image.info and the web page's preview do.
//
//	go test ./formats -run '^$' -bench ImageInfo -benchmem -count 6
func BenchmarkImageInfo(b *testing.B) {
	path := benchInput(b, "photo-4000x3000.jpg", func(p string) error { return writePhoto(p, 4000, 3000) })
	b.Run("convfiles", func(b *testing.B) {
		e := benchEnv(b, path, "photo.jpg")
		for b.Loop() {
			info, err := formats.ImageInfo(ctx, e, formats.FileArgs{File: "photo.jpg"})
			if err != nil || info.Width != 4000 {
				b.Fatalf("info %+v %v", info, err)
			}
		}
	})
	// The baseline: the standard library's image.DecodeConfig on the open
	// file, which reads only the header (but knows no EXIF orientation).
	b.Run("DecodeConfig", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(f)
			f.Close()
			if err != nil || cfg.Width != 4000 {
				b.Fatalf("config %+v %v", cfg, err)
			}
		}
	})
}
