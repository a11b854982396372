package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"convfiles/auth"
	"convfiles/content"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/keyrows"
	"convfiles/postgres"
	"convfiles/s3blobs"
	"convfiles/sqlite"
)

// StorageConfig is the [storage] section: where the metadata and the
// bytes live. The embedded default (both empty) is the SQLite file
// <data_dir>/index.db and the folder <data_dir>/files; several replicas
// share a PostgreSQL index and an S3-compatible bucket.
type StorageConfig struct {
	// Index is "" for the SQLite file, or a PostgreSQL URL
	// (postgres://user:password@host:5432/db). PostgreSQL's PG*
	// variables (PGPASSWORD, …) fill in what the URL leaves out.
	Index string `toml:"index"`
	// Blobs is "" for the data folder, or s3://bucket/prefix.
	Blobs string   `toml:"blobs"`
	S3    S3Config `toml:"s3"`
	// GCInterval is how often a server collects the objects no row names
	// (0: never; default 1h). GCGrace is how old such an object must be
	// (default 1h): younger ones may belong to a write in flight.
	GCInterval Duration `toml:"gc_interval"`
	GCGrace    Duration `toml:"gc_grace"`
}

// S3Config is [storage.s3]: how to reach the object store. Empty keys
// fall back to the standard AWS_* variables.
type S3Config struct {
	// Endpoint is the store's URL ("https://s3.example.com",
	// "http://127.0.0.1:7070"); "" means AWS_ENDPOINT_URL_S3 or
	// AWS_ENDPOINT_URL, else AWS S3 itself.
	Endpoint string `toml:"endpoint"`
	// Region defaults to AWS_REGION, then AWS_DEFAULT_REGION, then
	// us-east-1.
	Region string `toml:"region"`
	// AccessKey and SecretKey default to AWS_ACCESS_KEY_ID and
	// AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN).
	AccessKey string `toml:"access_key"`
	SecretKey string `toml:"secret_key"`
	// PartSize is a multipart upload's part size (default 16 MiB).
	PartSize int64 `toml:"part_size"`
	// CacheBytes is the memory a replica keeps small objects (up to 256
	// KiB) in once read (default 64 MiB; -1: none). Objects are never
	// rewritten, so the cache is never stale.
	CacheBytes int64 `toml:"cache_bytes"`
	// RedirectOver, when above zero, sends a browser that GETs a file of
	// at least this many bytes to the object store itself (a 307 to a
	// URL signed for 5 minutes) instead of relaying the bytes (default 0:
	// every file is relayed). The store must be reachable by clients.
	RedirectOver int64 `toml:"redirect_over"`
	// PublicEndpoint is the store's URL as clients reach it, for those
	// redirects, when it is not Endpoint (default: Endpoint).
	PublicEndpoint string `toml:"public_endpoint"`
}

// distributed reports whether the store is shared by replicas: its
// bytes in an object store.
func (c Config) distributed() bool { return c.Storage.Blobs != "" }

// validateStorage checks [storage] before anything opens.
func (c Config) validateStorage() error {
	s := c.Storage
	if s.Index != "" && !isPostgresURL(s.Index) {
		return fmt.Errorf("config: storage.index %q: give a PostgreSQL URL (postgres://user@host/db), or leave it out for the SQLite file in the data folder", redactURL(s.Index))
	}
	if s.Blobs != "" {
		if _, _, err := parseS3URL(s.Blobs); err != nil {
			return err
		}
		if s.Index == "" {
			return errors.New("config: storage.blobs in an object store needs storage.index on PostgreSQL: replicas must share one index")
		}
	}
	if s.S3.PartSize != 0 && (s.S3.PartSize < 5<<20 || s.S3.PartSize > 5<<30) {
		return errors.New("config: storage.s3.part_size must be between 5 MiB and 5 GiB, as S3 requires")
	}
	if s.S3.CacheBytes < -1 {
		return errors.New("config: storage.s3.cache_bytes must be -1 (no cache), 0 (the default, 64 MiB) or a size in bytes")
	}
	if s.S3.RedirectOver < 0 {
		return errors.New("config: storage.s3.redirect_over must be 0 (relay every file, the default) or a size in bytes")
	}
	if s.S3.PublicEndpoint != "" {
		if u, err := url.Parse(s.S3.PublicEndpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("config: storage.s3.public_endpoint %q: give the store's URL as clients reach it (https://s3.example.com)", s.S3.PublicEndpoint)
		}
	}
	if s.GCInterval.Duration < 0 || s.GCGrace.Duration < 0 {
		return errors.New("config: storage.gc_interval and storage.gc_grace must not be negative")
	}
	return nil
}

func isPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// parseS3URL splits s3://bucket/prefix.
func parseS3URL(s string) (bucket, prefix string, err error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return "", "", fmt.Errorf("config: storage.blobs %q: write s3://bucket or s3://bucket/prefix", s)
	}
	return u.Host, strings.Trim(u.Path, "/"), nil
}

// redactURL hides a URL's password, for messages and logs.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// storeIndex is what the configured index is: the store's metadata and
// the hosted mode's keys.
type storeIndex interface {
	driver.Index
	keyrows.Store
}

// keysOf is the KeyStore over an index that keeps API keys' rows.
func keysOf(ix driver.Index) (auth.KeyStore, bool) {
	rows, ok := ix.(keyrows.Store)
	if !ok {
		return nil, false
	}
	return auth.StoredKeys(rows), true
}

// openIndex opens the configured index.
func openIndex(cfg Config) (storeIndex, error) {
	if isPostgresURL(cfg.Storage.Index) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ix, err := postgres.Open(ctx, cfg.Storage.Index)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", redactURL(cfg.Storage.Index), err)
		}
		return ix, nil
	}
	return sqlite.Open(cfg.indexPath())
}

// openObjects opens the configured object store, or returns nil for the
// data folder.
func openObjects(cfg Config) (driver.ObjectStore, error) {
	if cfg.Storage.Blobs == "" {
		return nil, nil
	}
	bucket, prefix, err := parseS3URL(cfg.Storage.Blobs)
	if err != nil {
		return nil, err
	}
	s := cfg.Storage.S3
	c := s3blobs.Config{Endpoint: firstSet(s.Endpoint, os.Getenv("AWS_ENDPOINT_URL_S3"), os.Getenv("AWS_ENDPOINT_URL")),
		Bucket: bucket, Prefix: prefix, Region: firstSet(s.Region, os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION"), "us-east-1"),
		AccessKey: s.AccessKey, SecretKey: s.SecretKey, SpoolDir: filepath.Join(cfg.DataDir, "spool"), PartSize: uint64(s.PartSize), CacheBytes: s.CacheBytes,
		PublicEndpoint: s.PublicEndpoint}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s3blobs.Open(ctx, c)
}

func firstSet(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// indexName names the index for the start line, without a password.
func (c Config) indexName() string {
	if c.Storage.Index != "" {
		return redactURL(c.Storage.Index)
	}
	return c.indexPath()
}

// blobsName names where the bytes live, for the start line.
func (c Config) blobsName() string { return firstSet(c.Storage.Blobs, c.filesDir()) }

// indexPath is where the SQLite index lives: <data_dir>/index.db.
func (c Config) indexPath() string { return filepath.Join(c.DataDir, "index.db") }

// openIndexedStore opens the configured index, the object store if any,
// and the Store of conversations over them; on disk the Store reconciles
// the index with the folder first. close closes them all.
func openIndexedStore(cfg Config, logger *slog.Logger, bus *files.Bus) (store *engine.Store, close func(), err error) {
	ix, err := openIndex(cfg)
	if err != nil {
		return nil, nil, err
	}
	objects, err := openObjects(cfg)
	if err != nil {
		ix.Close()
		return nil, nil, err
	}
	opts := cfg.storeOptions()
	opts.Logger, opts.Bus, opts.Index, opts.Sniff, opts.Objects = logger, bus, ix, content.SniffMIME, objects
	store, err = engine.OpenStore(cfg.filesDir(), opts)
	if err != nil {
		ix.Close()
		return nil, nil, err
	}
	return store, func() { store.Close(); ix.Close() }, nil
}
