// Package sqlite is the metadata index of convfiles (driver.Index) in an
// SQLite file: modernc.org/sqlite, no cgo, write-ahead logging, schema
// migrations embedded in the binary. Several processes (the server and the
// CLI) may open the same file; SQLite serializes their writers.
//
// It imports the domain (files), the driver interface it satisfies and
// the SQL text both indexes share (internal/sqltext): never auth, the
// engine, another implementation or a door.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"convfiles/files/driver"

	"convfiles/files"

	"github.com/google/uuid"
	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Index is a driver.Index in an SQLite file.
type Index struct {
	w *sql.DB // one connection: this process's single writer
	r *sql.DB // readers, in parallel under WAL
	// now tells the time; tests may replace it.
	now func() time.Time
	// eventsKept bounds the event history (KeepEvents).
	eventsKept int64
	// stmts are the write connection's prepared statements, by query.
	stmts sync.Map
	// readStmts are the readers' prepared statements, by query.
	readStmts sync.Map
}

var _ driver.Index = (*Index)(nil)

// Open opens (creating and migrating it if needed) the index at path.
func Open(path string) (*Index, error) {
	// synchronous=NORMAL with WAL: a commit survives a crash of the
	// process; a power cut may lose the newest ones, which the start-up
	// reconciliation with disk restores. temp_store=MEMORY keeps the
	// statement journals of upserts and multi-row changes in memory: on a
	// temporary file they were a third of the writes of a transaction.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)", "temp_store(MEMORY)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	return open(path, dsn+"&_txlock=immediate", dsn+"&mode=ro")
}

// OpenMemory opens a new, empty index that lives in this process's memory
// and is gone when closed: for tests that need an index and speed, not
// durability. Its readers and its writer share one database.
func OpenMemory() (*Index, error) {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "foreign_keys(ON)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:/convfiles-" + uuid.NewString() + "?vfs=memdb&" + q.Encode()
	return open("memory", dsn+"&_txlock=immediate", dsn)
}

// open opens the index's writer and readers by their data source names.
func open(what, writer, readers string) (*Index, error) {
	w, err := sql.Open("sqlite", writer)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", what, err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", readers)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open index %s: %w", what, err)
	}
	r.SetMaxOpenConns(8)
	ix := &Index{w: w, r: r, now: time.Now, eventsKept: DefaultEventsKept}
	if err := ix.migrate(); err != nil {
		ix.Close()
		return nil, fmt.Errorf("index %s: %w", what, err)
	}
	return ix, nil
}

// Close closes the index.
func (ix *Index) Close() error {
	ix.stmts.Range(func(_, s any) bool { s.(*sql.Stmt).Close(); return true })
	ix.readStmts.Range(func(_, s any) bool { s.(*sql.Stmt).Close(); return true })
	errR := ix.r.Close()
	if err := ix.w.Close(); err != nil {
		return err
	}
	return errR
}

// migrate applies the embedded migrations the file has not seen yet,
// tracked in PRAGMA user_version, each in its own transaction.
func (ix *Index) migrate() error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	ctx := context.Background()
	for i, name := range names {
		tx, err := ix.w.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow("PRAGMA user_version").Scan(&have); err != nil {
			tx.Rollback()
			return err
		}
		if have > i {
			tx.Rollback()
			continue
		}
		body, _ := migrations.ReadFile(name)
		if _, err := tx.Exec(string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", name, err)
		}
		if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// timeLayout stores times as fixed-width UTC text, so they sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func stamp(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseStamp(s string) time.Time {
	t, _ := time.Parse(timeLayout, s)
	return t
}

// wrap turns a database error into a files.Error: a full disk is
// KindNoSpace, a database another process holds past the busy timeout
// KindUnavailable, the rest KindInternal.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if files.KindOf(err) != files.KindInternal {
		return err
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff { // the primary code of an extended one
		case sqlite3.SQLITE_FULL:
			return files.E(op, files.KindNoSpace, "", "the server's disk is full; nothing was changed", err)
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return files.Unavailable(op, "", "the metadata index is busy", err)
		}
	}
	if errors.Is(err, syscall.ENOSPC) {
		return files.E(op, files.KindNoSpace, "", "the server's disk is full; nothing was changed", err)
	}
	return files.E(op, files.KindInternal, "", "the metadata index failed", err)
}

// placeholders returns "?, ?, …" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
