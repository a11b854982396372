// Package postgres is the metadata index of convfiles (driver.Index) in a
// PostgreSQL database, for several replicas sharing one store: pgx with a
// connection pool, schema migrations embedded in the binary and applied
// at start-up, each conversation's changes serialized across replicas by
// an advisory lock, event numbers handed out in commit order, and every
// commit announced with NOTIFY so a follower on any replica hears of it
// at once.
//
// It imports the domain (files), the driver interface it satisfies and
// the SQL text both indexes share (internal/sqltext): never auth, the
// engine, another implementation or a door.
package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"convfiles/files/driver"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DefaultEventsKept is how many events the history holds; older ones are
// pruned, and a client resuming from before them is told to reload.
const DefaultEventsKept = 100_000

// defaultPoolSize is the pool's size unless the URL sets pool_max_conns.
const defaultPoolSize = 24

// Index is a driver.Index in a PostgreSQL database.
type Index struct {
	pool *pgxpool.Pool
	// now tells the time; tests may replace it.
	now        func() time.Time
	eventsKept int64
	listen     listener
	closeOnce  sync.Once
}

var _ driver.Index = (*Index)(nil)

// Open connects to the database at url (postgres://…), applies the
// migrations it has not seen yet, and returns the index.
func Open(ctx context.Context, url string) (*Index, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultPoolSize
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	ix := &Index{pool: pool, now: time.Now, eventsKept: DefaultEventsKept}
	if err := ix.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("index: %w", err)
	}
	ix.listen.init(ix)
	return ix, nil
}

// KeepEvents sets how many events the history holds (at least 1).
func (ix *Index) KeepEvents(n int) { ix.eventsKept = max(int64(n), 1) }

// Close stops listening and closes the pool.
func (ix *Index) Close() error {
	ix.closeOnce.Do(func() {
		ix.listen.close()
		ix.pool.Close()
	})
	return nil
}

// migrateLock is the advisory lock key that serializes migrations, so
// replicas starting at once apply each one once.
const migrateLock = 0x636f6e7666696c65 // "convfile"

// migrate applies the embedded migrations the database has not seen yet,
// each in its own transaction, tracked in schema_migrations.
func (ix *Index) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	return pgx.BeginFunc(ctx, ix.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version integer PRIMARY KEY, name text NOT NULL, applied_on bigint NOT NULL)`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
			return err
		}
		if have > len(names) {
			return fmt.Errorf("the database is at schema version %d, newer than this convfiles (%d): upgrade convfiles", have, len(names))
		}
		for i, name := range names[have:] {
			body, _ := migrations.ReadFile(name)
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_on) VALUES ($1, $2, $3)`,
				have+i+1, name, time.Now().UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
}

// SchemaVersion returns how many migrations the database has applied.
func (ix *Index) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := ix.pool.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

func newID() string { return uuid.NewString() }

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
