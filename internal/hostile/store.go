package hostile

import (
	"testing"

	"convfiles/engine"
	"convfiles/internal/storetest"
)

// OpenStore opens the Store over the fixture's folder as the server does,
// with a metadata index (kept outside the fixture), so attacks meet IDs and
// versions too. It is closed when the test ends.
func (f *Fixture) OpenStore(t testing.TB) *engine.Store {
	t.Helper()
	store, _ := storetest.Open(t, f.FilesDir, engine.Options{})
	return store
}
