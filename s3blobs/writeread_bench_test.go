package s3blobs_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/pgserver"
	"convfiles/sqlite"

	"github.com/jackc/pgx/v5"
)

// BenchmarkWriteRead1KiB is one durable, indexed 1 KiB overwrite and one
// read of it, on PostgreSQL and S3 as a replica runs them, against the
// same on the local store (SQLite and the data folder) in the same run.
// It reports each side's write and read time, and two floors of a write
// on PostgreSQL + S3: its S3 PUT alone, and the PUT followed by the least
// a durable record of it can cost, one row upserted and committed in a
// single round trip.
//
//	go test ./s3blobs -run '^$' -bench WriteRead1KiB -benchtime 500x -count 4
func BenchmarkWriteRead1KiB(b *testing.B) {
	data := bytes.Repeat([]byte("x"), 1024)
	stores := map[string]func(b *testing.B) *engine.Store{
		"local": func(b *testing.B) *engine.Store {
			ix, err := sqlite.Open(filepath.Join(b.TempDir(), "index.db"))
			if err != nil {
				b.Fatal(err)
			}
			s, err := engine.OpenStore(filepath.Join(b.TempDir(), "files"), engine.Options{Index: ix, Sniff: content.SniffMIME})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close(); ix.Close() })
			return s
		},
		"postgres+s3": func(b *testing.B) *engine.Store {
			return openReplica(b, openBucket(b, "bench"), pgserver.Database(b), engine.Options{})
		},
	}
	for _, name := range []string{"local", "postgres+s3"} {
		b.Run(name, func(b *testing.B) {
			sp, err := stores[name](b).Space("bench")
			if err != nil {
				b.Fatal(err)
			}
			defer sp.Close()
			ctx := context.Background()
			var write, read time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, err := sp.WriteBytes(ctx, "note.txt", data, files.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if got, _, err := sp.ReadFile(ctx, "note.txt", 1<<20); err != nil || len(got) != len(data) {
					b.Fatalf("read: %d bytes, %v", len(got), err)
				}
				write, read = write+t1.Sub(t0), read+time.Since(t1)
			}
			b.ReportMetric(float64(write.Microseconds())/float64(b.N), "write-µs")
			b.ReportMetric(float64(read.Microseconds())/float64(b.N), "read-µs")
		})
	}
	// The floor of a write on PostgreSQL + S3: the PUT of its 1 KiB alone,
	// through the same client to the same server, which a write makes
	// before its transaction.
	b.Run("s3-put-alone", func(b *testing.B) {
		blobs := openBucket(b, "bench-put")
		i := 0
		for b.Loop() {
			i++
			put(b, blobs, driver.BlobKey{Conversation: "bench", Path: fmt.Sprintf("obj-%d", i)}, data)
		}
	})
	b.Run("s3-put-then-one-row-committed", func(b *testing.B) {
		blobs := openBucket(b, "bench-floor")
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, pgserver.Database(b))
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `CREATE TABLE floor (name text PRIMARY KEY, blob text NOT NULL, size bigint NOT NULL)`); err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			i++
			key := driver.BlobKey{Conversation: "bench", Path: fmt.Sprintf("obj-%d", i)}
			put(b, blobs, key, data)
			var batch pgx.Batch
			batch.Queue("BEGIN")
			batch.Queue(`INSERT INTO floor VALUES ('note.txt', $1, $2) ON CONFLICT (name) DO UPDATE SET blob = excluded.blob, size = excluded.size`, key.Path, len(data))
			batch.Queue("COMMIT")
			if err := conn.SendBatch(ctx, &batch).Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
