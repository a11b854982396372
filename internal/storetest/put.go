package storetest

import (
	"context"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/samples"
)

// Put writes data as name into conversation conv, as an upload, and
// returns the file's record.
func Put(t testing.TB, store *engine.Store, conv, name string, data []byte) files.Record {
	t.Helper()
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if _, err := sp.WriteBytes(context.Background(), name, data, files.WriteOptions{Source: files.SourceUpload}); err != nil {
		t.Fatal(err)
	}
	rec, err := sp.Record(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// PutSamples uploads samples of content/testdata into conversation conv
// under their own names and returns their records by name.
func PutSamples(t testing.TB, store *engine.Store, conv string, names ...string) map[string]files.Record {
	t.Helper()
	recs := make(map[string]files.Record, len(names))
	for _, name := range names {
		recs[name] = Put(t, store, conv, name, samples.Read(t, name))
	}
	return recs
}
