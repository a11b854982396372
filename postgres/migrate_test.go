package postgres_test

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"

	"convfiles/internal/pgserver"
	"convfiles/postgres"

	"github.com/jackc/pgx/v5"
)

// TestMigrationsApplyOnceAndRefuseANewerSchema: replicas opening one
// database at once apply every migration exactly once; a database that a
// newer convfiles migrated is refused with what to do, not written to.
func TestMigrationsApplyOnceAndRefuseANewerSchema(t *testing.T) {
	ctx := context.Background()
	url := pgserver.Database(t)
	shipped, _ := fs.Glob(os.DirFS("migrations"), "*.sql")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			ix, err := postgres.Open(ctx, url)
			if err == nil {
				ix.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatalf("a replica starting with the others: %v", err)
		}
	}
	ix := open(t, url)
	if v, err := ix.SchemaVersion(ctx); err != nil || v != len(shipped) {
		t.Fatalf("schema version %d (%v), want %d", v, err, len(shipped))
	}
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	var n int
	db.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n)
	if n != len(shipped) {
		t.Fatalf("%d migrations recorded, want each of %d once", n, len(shipped))
	}
	db.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_on) VALUES (99, 'from the future', 0)`)
	if _, err := postgres.Open(ctx, url); err == nil || !strings.Contains(err.Error(), "upgrade convfiles") {
		t.Fatalf("opening a newer schema: %v", err)
	}
}
