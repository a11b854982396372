package sqlite_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
	"convfiles/sqlite"
)

// env is a data folder with an indexed Store, reopenable like a restart.
type env struct {
	dir   string
	opts  engine.Options
	store *engine.Store
	index *sqlite.Index
	bus   *files.Bus
}

func newEnv(t *testing.T, opts engine.Options) *env {
	t.Helper()
	e := &env{dir: t.TempDir(), opts: opts}
	e.open(t)
	t.Cleanup(func() { e.close() })
	return e
}

// open opens the index and the Store over the env's folder.
func (e *env) open(t *testing.T) {
	t.Helper()
	ix, err := sqlite.Open(filepath.Join(e.dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	opts := e.opts
	opts.Index, opts.Bus = ix, files.NewBus()
	opts.Sniff = func(name string, head []byte) string {
		if strings.HasSuffix(name, ".txt") {
			return "text/plain"
		}
		return "application/octet-stream"
	}
	s, err := engine.OpenStore(filepath.Join(e.dir, "files"), opts)
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	e.store, e.index, e.bus = s, ix, opts.Bus
}

func (e *env) close() {
	if e.store != nil {
		e.store.Close()
		e.index.Close()
		e.store = nil
	}
}

// restart closes and reopens everything, as a server restart does.
func (e *env) restart(t *testing.T) {
	e.close()
	e.open(t)
}

func (e *env) space(t *testing.T, id string) *engine.Space {
	t.Helper()
	sp, err := e.store.Space(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return sp
}

func write(t *testing.T, sp *engine.Space, name, body string) files.Info {
	t.Helper()
	info, err := sp.WriteBytes(context.Background(), name, []byte(body), files.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func read(t *testing.T, sp *engine.Space, name string) string { return enginetest.Read(t, sp, name) }

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// ctx0 is the context of the index calls a test makes directly.
var ctx0 = context.Background()
