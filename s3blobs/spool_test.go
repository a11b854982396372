package s3blobs

import (
	"bytes"
	"io"
	"testing"
)

// TestASpoolIsAFileInMemoryOrOnDisk: writes at any offset, a seek past the
// end, reads back and the size come out as an os.File's would, whether the
// bytes stayed in memory or spilled to the spool folder past memorySpool.
func TestASpoolIsAFileInMemoryOrOnDisk(t *testing.T) {
	for _, total := range []int{1 << 10, memorySpool, memorySpool + 1, 3 * memorySpool} {
		budget := &memoryBudget{max: spoolMemory}
		s := &spool{dir: t.TempDir(), budget: budget}
		want := make([]byte, 0, total)
		chunk := bytes.Repeat([]byte("abcdefgh"), 1<<10)
		for len(want) < total {
			p := chunk[:min(len(chunk), total-len(want))]
			if _, err := s.Write(p); err != nil {
				t.Fatal(err)
			}
			want = append(want, p...)
		}
		// Overwrite the start, then write past the end with a hole.
		if _, err := s.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		s.Write([]byte("XY"))
		copy(want, "XY")
		if _, err := s.Seek(int64(total+3), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		s.Write([]byte("Z"))
		want = append(want, 0, 0, 0, 'Z')
		if n, err := s.size(); err != nil || n != int64(len(want)) {
			t.Fatalf("%d bytes: size %d (%v), want %d", total, n, err, len(want))
		}
		got := make([]byte, len(want))
		if _, err := s.ReadAt(got, 0); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: read back differs", total)
		}
		if spilled := s.f != nil; spilled != (total+4 > memorySpool) {
			t.Errorf("%d bytes: spilled to disk %v", total, spilled)
		}
		if _, err := s.Seek(-1, io.SeekStart); err == nil {
			t.Errorf("%d bytes: a seek before the start was taken", total)
		}
		s.Close()
		if budget.used != 0 {
			t.Errorf("%d bytes: the closed spool still holds %d bytes of the budget", total, budget.used)
		}
	}
}

// TestSpoolsShareTheirStoresMemory: what the writers of one store keep in
// memory is bounded all together: past the budget a writer spools to
// disk, even a small one, and a closed writer gives its bytes back.
func TestSpoolsShareTheirStoresMemory(t *testing.T) {
	budget := &memoryBudget{max: 3 << 10}
	dir := t.TempDir()
	first, second := &spool{dir: dir, budget: budget}, &spool{dir: dir, budget: budget}
	first.Write(make([]byte, 2<<10))
	second.Write(make([]byte, 2<<10))
	if first.f != nil || second.f == nil {
		t.Fatalf("with room for one of them, in memory: first %v, second %v", first.f == nil, second.f == nil)
	}
	if budget.used != 2<<10 {
		t.Fatalf("the budget holds %d bytes, want the first writer's 2048", budget.used)
	}
	first.Close()
	second.Close()
	third := &spool{dir: dir, budget: budget}
	third.Write(make([]byte, 2<<10))
	if third.f != nil || budget.used != 2<<10 {
		t.Fatalf("after the others closed a small writer spilled (%v) or the budget is %d", third.f != nil, budget.used)
	}
	third.Close()
}
