package engine

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/files"
)

func newStore(t testing.TB, l files.Limits) (*Store, *files.Bus) {
	t.Helper()
	bus := files.NewBus()
	s, err := OpenStore(filepath.Join(t.TempDir(), "files"), Options{Limits: l, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, bus
}

func space(t testing.TB, s *Store, id string) *Space {
	t.Helper()
	sp, err := s.Space(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return sp
}

func readAll(t *testing.T, sp *Space, name string) string {
	t.Helper()
	f, _, err := sp.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b)
}

func TestWriteReadOverwriteRemove(t *testing.T) {
	s, bus := newStore(t, files.Limits{})
	sub := bus.Subscribe(10)
	sp := space(t, s, "conv-1")
	ctx := context.Background()

	if _, err := sp.WriteBytes(ctx, "sub/dir/a.txt", []byte("one"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	info, err := sp.Write(ctx, "sub/dir/a.txt", strings.NewReader("two!"), files.WriteOptions{})
	if err != nil || info.Size != 4 {
		t.Fatalf("overwrite: %v %+v", err, info)
	}
	if got := readAll(t, sp, "sub/dir/a.txt"); got != "two!" {
		t.Fatalf("read %q", got)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "conv-1", "sub", "dir", "a.txt")); err != nil {
		t.Fatalf("file not where DESIGN.md puts it: %v", err)
	}
	if err := sp.Remove(ctx, "sub/dir/a.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Stat(ctx, "sub/dir/a.txt"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("stat after remove: %v", err)
	}
	if err := sp.Remove(ctx, "sub"); files.KindOf(err) != files.KindConflict {
		t.Fatalf("removing a folder: %v, want conflict", err)
	}
	want := []files.EventType{files.FileCreated, files.FileModified, files.FileDeleted}
	for _, w := range want {
		select {
		case ev := <-sub.C:
			if ev.Type != w || ev.Conversation != "conv-1" || ev.Name != "sub/dir/a.txt" {
				t.Fatalf("event %+v, want %s", ev, w)
			}
		case <-time.After(time.Second):
			t.Fatalf("no %s event", w)
		}
	}
}

func TestReadMissingConversationIsNotFound(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "never-written")
	if _, _, err := sp.Open(context.Background(), "a.txt"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("got %v", err)
	}
	if list, err := sp.List(context.Background()); err != nil || len(list) != 0 {
		t.Fatalf("list of missing conversation: %v %v", list, err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "never-written")); !os.IsNotExist(err) {
		t.Fatalf("a read created the conversation folder")
	}
}

func TestFailedWriteKeepsOldFileAndLeavesNoTemp(t *testing.T) {
	s, _ := newStore(t, files.Limits{MaxFileBytes: 1000})
	sp := space(t, s, "c")
	ctx := context.Background()
	if _, err := sp.WriteBytes(ctx, "keep.txt", []byte("original"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := sp.Write(ctx, "keep.txt", bytes.NewReader(make([]byte, 5000)), files.WriteOptions{})
	if files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "at most 1000 B") {
		t.Fatalf("oversized write: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sp.WriteBytes(cctx, "keep.txt", []byte("new"), files.WriteOptions{}); err == nil {
		t.Fatal("cancelled write succeeded")
	}
	if got := readAll(t, sp, "keep.txt"); got != "original" {
		t.Fatalf("old file changed to %q", got)
	}
	entries, _ := os.ReadDir(filepath.Join(s.Dir(), "c"))
	if len(entries) != 1 {
		t.Fatalf("leftovers in the folder: %v", entries)
	}
}

func TestBudgetCapsBytesPerExecution(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	sp := space(t, s, "c")
	b := files.NewBudget(100)
	ctx := context.Background()
	if _, err := sp.WriteBytes(ctx, "a", make([]byte, 60), files.WriteOptions{Budget: b}); err != nil {
		t.Fatal(err)
	}
	_, err := sp.WriteBytes(ctx, "a", make([]byte, 60), files.WriteOptions{Budget: b})
	if files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "this execution may write at most 100 B") {
		t.Fatalf("second write: %v", err)
	}
	if b.Used() != 60 {
		t.Fatalf("budget charged %d for a refused write", b.Used())
	}
}

func TestSweepRemovesStaleTempsButNotLiveOnes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	conv := filepath.Join(dir, "c", "sub")
	os.MkdirAll(conv, 0o700)
	stale := filepath.Join(conv, files.ReservedPrefix+"tmp-stale")
	fresh := filepath.Join(conv, files.ReservedPrefix+"tmp-fresh")
	os.WriteFile(stale, []byte("half"), 0o600)
	os.WriteFile(fresh, []byte("being written"), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	os.MkdirAll(filepath.Join(dir, files.ReservedPrefix+"trash-x", "y"), 0o700)
	s, err := OpenStore(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("stale temp file survived the sweep")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a temp file written a moment ago was swept")
	}
	if _, err := os.Stat(filepath.Join(dir, files.ReservedPrefix+"trash-x")); !os.IsNotExist(err) {
		t.Error("trash folder survived the sweep")
	}
	sp := space(t, s, "c")
	if list, _ := sp.List(context.Background()); len(list) != 0 {
		t.Errorf("reserved names listed: %v", list)
	}
}

func TestRemoveConversation(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	ctx := context.Background()
	sp := space(t, s, "gone")
	sp.WriteBytes(ctx, "a/b.txt", []byte("x"), files.WriteOptions{})
	other := space(t, s, "stays")
	other.WriteBytes(ctx, "b.txt", []byte("y"), files.WriteOptions{})
	if err := s.RemoveConversation(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteBytes(ctx, "late.txt", []byte("z"), files.WriteOptions{}); files.KindOf(err) != files.KindConflict {
		t.Fatalf("write through a Space of a deleted conversation: %v", err)
	}
	convs, _ := s.Conversations(ctx)
	if len(convs) != 1 || convs[0].ID != "stays" || convs[0].Files != 1 || convs[0].Bytes != 1 {
		t.Fatalf("conversations after removal: %+v", convs)
	}
	if err := s.RemoveConversation(ctx, "gone"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("second removal: %v", err)
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Fatalf("data folder holds %v", entries)
	}
}

func TestReadRoots(t *testing.T) {
	allowed := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(allowed, "ok.txt"), []byte("fine"), 0o600)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600)
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(allowed, "link.txt"))
	os.Symlink(outside, filepath.Join(allowed, "linkdir"))
	rr, err := OpenReadRoots([]string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	f, _, err := rr.Open(filepath.Join(allowed, "ok.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, p := range []string{
		filepath.Join(outside, "secret.txt"),
		allowed + "/../" + filepath.Base(outside) + "/secret.txt",
		filepath.Join(allowed, "link.txt"),
		filepath.Join(allowed, "linkdir", "secret.txt"),
		allowed + "x/secret.txt",
		"relative.txt",
	} {
		if f, _, err := rr.Open(p); err == nil {
			f.Close()
			t.Errorf("read %q outside the read root", p)
		}
	}
	var none *ReadRoots
	if _, _, err := none.Open("/etc/hostname"); files.KindOf(err) != files.KindForbidden || !strings.Contains(err.Error(), "none is configured") {
		t.Errorf("no read roots: %v", err)
	}
}

// TestFolderDeletedByAnotherProcess: a cached conversation folder removed
// behind the Store's back (convfiles cleanup in another process) is noticed,
// and a new folder of the same name is used.
func TestFolderDeletedByAnotherProcess(t *testing.T) {
	clock := time.Now()
	s, err := OpenStore(filepath.Join(t.TempDir(), "files"), Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	sp := space(t, s, "c")
	sp.WriteBytes(ctx, "old.txt", []byte("old"), files.WriteOptions{})
	sp.Close()
	os.RemoveAll(filepath.Join(s.Dir(), "c"))
	os.MkdirAll(filepath.Join(s.Dir(), "c"), 0o700)
	os.WriteFile(filepath.Join(s.Dir(), "c", "new.txt"), []byte("new"), 0o600)
	// Within a second the cached folder is trusted: the deleted one refuses
	// writes instead of losing them.
	stale := space(t, s, "c")
	if _, err := stale.WriteBytes(ctx, "lost.txt", []byte("x"), files.WriteOptions{}); err == nil {
		t.Fatal("a write into the deleted folder succeeded")
	}
	clock = clock.Add(2 * time.Second)
	sp2 := space(t, s, "c")
	if got := readAll(t, sp2, "new.txt"); got != "new" {
		t.Fatalf("read %q through a stale folder handle", got)
	}
	if _, err := sp2.WriteBytes(ctx, "more.txt", []byte("x"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "c", "more.txt")); err != nil {
		t.Fatal("the write went to the deleted folder")
	}
}

// TestQuotaCountsFilesWrittenByAnotherProcess: a second Store over the same
// folder (another convfiles process) that reads, removes and renames first
// still counts what is on disk when it writes.
func TestQuotaCountsFilesWrittenByAnotherProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	first, _ := OpenStore(dir, Options{})
	sp := space(t, first, "q")
	ctx := context.Background()
	for _, n := range []string{"a", "b", "c"} {
		sp.WriteBytes(ctx, n, make([]byte, 300), files.WriteOptions{})
	}
	first.Close()

	second, err := OpenStore(dir, Options{Limits: files.Limits{MaxConversationBytes: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	sp2 := space(t, second, "q")
	readAll(t, sp2, "a")
	sp2.Remove(ctx, "a")       // before the count is loaded: 600 bytes remain
	sp2.Rename(ctx, "b", "b2") // a rename changes no usage
	if _, err := sp2.WriteBytes(ctx, "d", make([]byte, 400), files.WriteOptions{}); err != nil {
		t.Fatalf("600 + 400 fit 1000: %v", err)
	}
	if _, err := sp2.WriteBytes(ctx, "e", make([]byte, 1), files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge {
		t.Fatalf("a byte over the quota: %v", err)
	}
}
