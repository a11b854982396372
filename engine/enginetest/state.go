package enginetest

import (
	"context"
	"fmt"
	"testing"

	"convfiles/engine"
	"convfiles/files"
)

// State is everything of a conversation that moving it to another store
// must keep: each row (less where its bytes live, which differs from
// store to store), its versions, and all their bytes.
type State struct {
	Rows     []files.Record
	Versions map[string][]files.Version
	Bytes    map[string]string // by "ID" and "ID@version"
}

// StateOf reads the State of a conversation of s.
func StateOf(t testing.TB, s *engine.Store, conv string) State {
	t.Helper()
	ctx := context.Background()
	st := State{Versions: map[string][]files.Version{}, Bytes: map[string]string{}}
	sp, err := s.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	recs, err := s.Index().Files(ctx, conv, "", 10000)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Deleted == nil {
			st.Bytes[r.ID] = Read(t, sp, r.Name)
		}
		r.Blob, r.DiskTime = "", 0
		st.Rows = append(st.Rows, r)
		vs, err := s.Index().Versions(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vs {
			b, _, err := sp.OpenVersion(ctx, r.ID, v.Version)
			st.Bytes[fmt.Sprintf("%s@%d", r.ID, v.Version)] = readAll(t, b, err)
			vs[i].Blob = ""
		}
		st.Versions[r.ID] = vs
	}
	return st
}
