package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"convfiles/engine"
	"convfiles/files"

	_ "modernc.org/sqlite"
)

// TestUsageFollowsEveryChange: the usage row a quota check reads equals
// what the rows add up to (live files plus kept versions) after writes,
// overwrites that keep versions, prunes, renames over a file, deletes,
// restores and the removal of a conversation, and it survives a restart.
func TestUsageFollowsEveryChange(t *testing.T) {
	e := newEnv(t, engine.Options{Versions: 2})
	ctx := context.Background()
	sp := e.space(t, "u1")
	check := func(step string) {
		t.Helper()
		got, err := e.index.Usage(ctx0, "u1")
		if err != nil {
			t.Fatal(err)
		}
		want := aggregate(t, filepath.Join(e.dir, "index.db"), "u1")
		if got != want {
			t.Fatalf("%s: usage row %+v, rows add up to %+v", step, got, want)
		}
	}
	write(t, sp, "a.txt", "12345")
	check("create")
	for _, body := range []string{"1", "22", "333", "4444"} {
		write(t, sp, "a.txt", body)
	}
	check("overwrites with pruning")
	write(t, sp, "b.txt", "bbbbbbbbbb")
	if _, err := sp.Rename(ctx, "b.txt", "a.txt"); err != nil {
		t.Fatal(err)
	}
	check("rename over a file")
	if err := sp.Remove(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	check("delete")
	vs, err := e.index.Versions(ctx0, mustID(t, e, "u1"))
	if err != nil || len(vs) == 0 {
		t.Fatalf("versions %v %v", vs, err)
	}
	if _, err := sp.Restore(ctx, vs[0].FileID, vs[0].Version, files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	check("restore")
	e.restart(t)
	check("restart")
	if u, _ := e.index.Usage(ctx0, "u1"); u.Files != 1 || u.Bytes == 0 {
		t.Fatalf("usage after restart %+v", u)
	}
	if err := e.store.RemoveConversation(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if u, _ := e.index.Usage(ctx0, "u1"); u != (files.Usage{}) {
		t.Fatalf("a removed conversation still uses %+v", u)
	}
}

// mustID returns the ID of any file of a conversation, deleted or live.
func mustID(t *testing.T, e *env, conv string) string {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(e.dir, "index.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id string
	if err := db.QueryRow(`SELECT id FROM files WHERE conversation = ? LIMIT 1`, conv).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// aggregate adds up a conversation's rows the slow way.
func aggregate(t *testing.T, path, conv string) files.Usage {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var u files.Usage
	var vb int64
	err = db.QueryRow(`SELECT COALESCE(SUM(size), 0), COUNT(*) FROM files WHERE conversation = ? AND deleted_on IS NULL`, conv).Scan(&u.Bytes, &u.Files)
	if err == nil {
		err = db.QueryRow(`SELECT COALESCE(SUM(size), 0) FROM versions WHERE conversation = ?`, conv).Scan(&vb)
	}
	if err != nil {
		t.Fatal(err)
	}
	u.Bytes += vb
	return u
}
