package hostile

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Conversation is the conversation the fixture attacks from.
const Conversation = "c1"

// Fixture is a data folder laid out for attack: conversation c1 with links
// planted in it, a sibling conversation c1-sibling whose name starts with
// c1's, and a folder outside the data folder holding canaries.
type Fixture struct {
	FilesDir string // the store's folder of conversations
	Outside  string // a folder outside it
	before   map[string]string
}

// NewFixture plants the traps under filesDir (created if needed).
func NewFixture(t testing.TB, filesDir string) *Fixture {
	t.Helper()
	f := &Fixture{FilesDir: filesDir, Outside: t.TempDir()}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	conv := filepath.Join(filesDir, Conversation)
	must(os.MkdirAll(conv, 0o755))
	must(os.MkdirAll(filepath.Join(filesDir, "c1-sibling"), 0o755))
	must(os.WriteFile(filepath.Join(filesDir, "c1-sibling", "canary.txt"), []byte(Secret), 0o644))
	must(os.WriteFile(filepath.Join(f.Outside, "secret.txt"), []byte(Secret), 0o644))
	must(os.Symlink(filepath.Join(f.Outside, "secret.txt"), filepath.Join(conv, "link-file")))
	must(os.Symlink(filepath.Join(f.Outside, "created-through-dangling-link.txt"), filepath.Join(conv, "dangling")))
	must(os.Symlink(f.Outside, filepath.Join(conv, "link-out")))
	os.Remove(EscapeTarget)
	f.before = f.snapshotOutside(t)
	return f
}

// snapshotOutside hashes every file outside conversation c1 that an attack
// could touch: the outside folder, the sibling conversation, and whatever
// else lies in the data folder.
func (f *Fixture) snapshotOutside(t testing.TB) map[string]string {
	t.Helper()
	snap := map[string]string{}
	walk := func(root, label string, skip string) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if skip != "" && p == skip {
				return fs.SkipDir
			}
			rel, _ := filepath.Rel(root, p)
			if label == "files" && strings.HasPrefix(rel, storeLockPrefix) {
				return nil // the Store's own lock files, empty and never written
			}
			key := label + "/" + rel
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				snap[key] = "link:" + target
			case d.IsDir():
				snap[key] = "dir"
			default:
				b, _ := os.ReadFile(p)
				snap[key] = fmt.Sprintf("%x", sha256.Sum256(b))
			}
			return nil
		})
	}
	walk(f.Outside, "outside", "")
	walk(f.FilesDir, "files", filepath.Join(f.FilesDir, Conversation))
	if _, err := os.Lstat(EscapeTarget); err == nil {
		snap["escape-target"] = "exists"
	}
	return snap
}

// storeLockPrefix starts the names of the lock files an indexed Store
// keeps at the top of its folder.
const storeLockPrefix = ".convfiles-"

// CheckUntouched fails the test if anything outside conversation c1
// changed since the fixture was planted.
func (f *Fixture) CheckUntouched(t testing.TB) {
	t.Helper()
	after := f.snapshotOutside(t)
	var diffs []string
	for k, v := range after {
		if f.before[k] != v {
			diffs = append(diffs, "changed or added: "+k)
		}
	}
	for k := range f.before {
		if _, ok := after[k]; !ok {
			diffs = append(diffs, "removed: "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Fatalf("an attack reached outside the conversation:\n%s", strings.Join(diffs, "\n"))
	}
}

// CheckContained fails the test unless a Contain or Trap write of name left
// a regular file at exactly that literal path inside conversation c1.
func (f *Fixture) CheckContained(t testing.TB, name string) {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(f.FilesDir, Conversation, filepath.FromSlash(name)))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%q: the write did not land as a regular file inside the conversation: %v", name, err)
	}
}
