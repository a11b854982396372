package engine

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"convfiles/files"
)

// gibLines yields about 1 GiB of text: one million lines of 1,073 bytes.
type gibLines struct {
	line  int
	ready []byte
}

func (g *gibLines) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(g.ready) == 0 {
			if g.line == 1_000_000 {
				break
			}
			g.line++
			l := make([]byte, 0, 1073)
			l = strconv.AppendInt(l, int64(g.line), 10)
			for len(l) < 1072 {
				l = append(l, ' ', 'x')
			}
			g.ready = append(l[:1072], '\n')
		}
		c := copy(p[n:], g.ready)
		g.ready, n = g.ready[c:], n+c
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// BenchmarkReadLinesGiB reads lines 500,000 to 500,010 of a 1 GiB file
// written through a Space (so its line index was built while it was
// written), next to the baseline of scanning the file to those lines.
// Run it alone: writing the file takes seconds.
func BenchmarkReadLinesGiB(b *testing.B) {
	dir := b.TempDir()
	s, err := OpenStore(filepath.Join(dir, "files"), Options{Limits: files.Limits{MaxFileBytes: 2 << 30, MaxConversationBytes: 4 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	sp, _ := s.Space("big")
	defer sp.Close()
	if _, err := sp.Write(context.Background(), "big.txt", &gibLines{}, files.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Run("convfiles", func(b *testing.B) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for b.Loop() {
			r, err := sp.ReadLines(context.Background(), "big.txt", files.LineQuery{Start: 500_000, End: 500_010})
			if err != nil || r.TotalLines != 1_000_000 || r.Content[:6] != "500000" {
				b.Fatalf("%v %d %.10q", err, r.TotalLines, r.Content)
			}
		}
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/1024, "KiB-alloc/op")
	})
	b.Run("scan-baseline", func(b *testing.B) {
		for b.Loop() {
			f, _ := os.Open(filepath.Join(dir, "files", "big", "big.txt"))
			sc := bufio.NewScanner(f)
			for line := 1; sc.Scan() && line < 500_010; line++ {
			}
			f.Close()
		}
	})
}
