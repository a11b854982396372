// Package s3blobs keeps the bytes of convfiles' files in an S3-compatible
// object store (driver.Blobs, driver.ObjectStore) with minio-go. A write is
// spooled to a local temporary file, so it can be written out of order
// and read back while it is written, and is then streamed to the store in
// parts of bounded size (a multipart upload read straight from the spool:
// memory does not grow with the file). Reads are ranged GETs pinned to
// the ETag they started with; copies are server-side.
//
// It imports the domain (files) and the driver interface it satisfies:
// never the engine, another implementation or a door.
package s3blobs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"syscall"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// storeRetries is how often one request to the store is tried.
const storeRetries = 3

// DefaultPartSize is the size of one part of a multipart upload: what
// one upload holds in flight, and a file of up to 10,000 parts (160 GiB).
const DefaultPartSize = 16 << 20

// Config says where the objects live and how to reach them.
type Config struct {
	// Endpoint is the store's address: host:port, or a URL whose scheme
	// says whether TLS is used. "" means AWS S3 (s3.amazonaws.com).
	Endpoint string
	Bucket   string
	// Prefix is prepended to every key ("" for the bucket's top).
	Prefix string
	Region string
	// The credentials; empty ones are taken from the standard AWS_*
	// variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
	// AWS_SESSION_TOKEN).
	AccessKey, SecretKey, SessionToken string
	// Insecure speaks plain HTTP to a host:port endpoint.
	Insecure bool
	// SpoolDir holds writes on their way to the store; "" means the
	// system's temporary folder.
	SpoolDir string
	// PartSize is the multipart upload's part size; 0 means
	// DefaultPartSize.
	PartSize uint64
	// CacheBytes bounds the memory that keeps small objects (up to 256
	// KiB) read recently; 0 means DefaultCacheBytes, a negative number
	// none.
	CacheBytes int64
	// PublicEndpoint is where clients reach the store for direct links
	// (driver.DirectURL), when it is not Endpoint: the store's public name
	// in front of an endpoint on a private network. "" means Endpoint.
	PublicEndpoint string
}

// Blobs is a driver.ObjectStore in one bucket.
type Blobs struct {
	c      *minio.Client
	public *minio.Client // signs direct links for PublicEndpoint
	cfg    Config
	prefix string // "" or ending in "/"
	cache  *objectCache
	// spooled is what the writers of this store hold in memory at once
	// (see spool): past spoolMemory, a writer spools to disk.
	spooled *memoryBudget
}

var _ driver.ObjectStore = (*Blobs)(nil)

// Open connects to the store and checks that the bucket exists.
func Open(ctx context.Context, cfg Config) (*Blobs, error) {
	creds := credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken)
	if cfg.AccessKey == "" {
		creds = credentials.NewEnvAWS()
	}
	c, host, err := client(cfg.Endpoint, cfg.Region, cfg.Insecure, creds)
	if err != nil {
		return nil, err
	}
	if cfg.PartSize == 0 {
		cfg.PartSize = DefaultPartSize
	}
	if cfg.SpoolDir == "" {
		cfg.SpoolDir = os.TempDir()
	}
	if err := os.MkdirAll(cfg.SpoolDir, 0o700); err != nil {
		return nil, fmt.Errorf("object store spool: %w", err)
	}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("object store %s: bucket %q: %w", host, cfg.Bucket, err)
	}
	if !ok {
		return nil, fmt.Errorf("object store %s: no bucket %q; create it first", host, cfg.Bucket)
	}
	public := c
	if cfg.PublicEndpoint != "" {
		// Signing a URL needs the bucket's region; the public endpoint
		// may not be reachable from here to ask it.
		region := cfg.Region
		if region == "" {
			if region, err = c.GetBucketLocation(ctx, cfg.Bucket); err != nil {
				return nil, fmt.Errorf("object store %s: bucket %q: %w", host, cfg.Bucket, err)
			}
		}
		if public, _, err = client(cfg.PublicEndpoint, region, cfg.Insecure, creds); err != nil {
			return nil, err
		}
	}
	prefix := strings.Trim(cfg.Prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	if cfg.CacheBytes == 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	return &Blobs{c: c, public: public, cfg: cfg, prefix: prefix, cache: newObjectCache(cfg.CacheBytes),
		spooled: &memoryBudget{max: spoolMemory}}, nil
}

// client makes a minio client for an endpoint: host:port (TLS unless
// insecure) or a URL whose scheme says.
func client(endpoint, region string, insecure bool, creds *credentials.Credentials) (*minio.Client, string, error) {
	host, secure := endpoint, !insecure
	if host == "" {
		host = "s3.amazonaws.com"
	}
	if u, err := url.Parse(host); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		host, secure = u.Host, u.Scheme == "https"
	}
	// With the region given, signing a URL asks the store nothing.
	// Three tries, not minio's ten: a store that is down is answered as
	// unavailable within a second or two, not after a run or a request
	// has spent its time on retries.
	c, err := minio.New(host, &minio.Options{Creds: creds, Secure: secure, Region: region, MaxRetries: storeRetries})
	if err != nil {
		return nil, host, fmt.Errorf("object store %s: %w", host, err)
	}
	return c, host, nil
}

// Location names where a conversation's objects live.
func (b *Blobs) Location(conversation string) string {
	return "s3://" + b.cfg.Bucket + "/" + b.prefix + conversation
}

// Client returns the minio client (for the garbage collector's listing
// and for tests that look at the bucket itself).
func (b *Blobs) Client() *minio.Client { return b.c }

// object is the object name of key. A key the Space would never make
// (a path that climbs, or an ID that is no conversation's) is refused
// here too: it must not reach another conversation's objects.
func (b *Blobs) object(op string, key driver.BlobKey) (string, error) {
	if !clean(key.Path) {
		return "", files.E(op, files.KindInvalid, key.Path, "not a path inside a conversation", nil)
	}
	prefix, err := b.convPrefix(op, key.Conversation)
	return prefix + key.Path, err
}

// convPrefix is the object name prefix of a conversation's blobs ("" is
// a standalone folder's, the prefix itself).
func (b *Blobs) convPrefix(op, conversation string) (string, error) {
	if conversation == "" {
		return b.prefix, nil
	}
	if err := files.ValidateConversationID(strings.TrimPrefix(conversation, files.ReservedPrefix)); err != nil {
		return "", files.E(op, files.KindInvalid, conversation, "not a conversation ID", err)
	}
	return b.prefix + conversation + "/", nil
}

// Stat describes the bytes at key: a key that only prefixes others is a
// folder (ErrIsFolder), as on disk.
func (b *Blobs) Stat(ctx context.Context, key driver.BlobKey) (files.BlobInfo, error) {
	name, err := b.object("stat", key)
	if err != nil {
		return files.BlobInfo{}, err
	}
	oi, err := b.c.StatObject(ctx, b.cfg.Bucket, name, minio.StatObjectOptions{})
	if err == nil {
		return info(key.Path, oi), nil
	}
	if !isNotFound(err) {
		return files.BlobInfo{}, b.fail("stat", key.Path, err)
	}
	for oi := range b.c.ListObjectsIter(ctx, b.cfg.Bucket, minio.ListObjectsOptions{Prefix: name + "/", MaxKeys: 1, Recursive: true}) {
		if oi.Err != nil {
			return files.BlobInfo{}, b.fail("stat", key.Path, oi.Err)
		}
		return files.BlobInfo{}, files.E("stat", files.KindConflict, key.Path, "is a folder, not a file", files.ErrIsFolder)
	}
	return files.BlobInfo{}, files.E("stat", files.KindNotFound, key.Path, "no such file", nil)
}

// tagKey is the user metadata every put and copy sets to a new random
// value: the blob's Tag. An ETag will not do, since equal bytes have
// equal ETags, and neither will the time, which S3 keeps in seconds.
const tagKey = "Convfiles-Tag"

func info(p string, oi minio.ObjectInfo) files.BlobInfo {
	tag := oi.UserMetadata[tagKey]
	if tag == "" {
		tag = strings.Trim(oi.ETag, `"`)
	}
	return files.BlobInfo{Path: p, Size: oi.Size, ModTime: oi.LastModified, Tag: tag}
}

// newTag is a fresh random Tag.
func newTag() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Copy makes dst hold the bytes of src with a server-side copy (composed
// from parts past 5 GiB, which one CopyObject cannot do).
func (b *Blobs) Copy(ctx context.Context, src, dst driver.BlobKey) error {
	srcName, err := b.object("copy", src)
	if err != nil {
		return err
	}
	dstName, err := b.object("copy", dst)
	if err != nil {
		return err
	}
	srcOpts := minio.CopySrcOptions{Bucket: b.cfg.Bucket, Object: srcName}
	dstOpts := minio.CopyDestOptions{Bucket: b.cfg.Bucket, Object: dstName,
		ReplaceMetadata: true, UserMetadata: map[string]string{tagKey: newTag()}}
	oi, err := b.c.StatObject(ctx, b.cfg.Bucket, srcOpts.Object, minio.StatObjectOptions{})
	if err != nil {
		return b.fail("copy", src.Path, err)
	}
	srcOpts.MatchETag = oi.ETag
	if oi.Size > 5<<30 {
		_, err = b.c.ComposeObject(ctx, dstOpts, srcOpts)
	} else {
		_, err = b.c.CopyObject(ctx, dstOpts, srcOpts)
	}
	return b.fail("copy", src.Path, err)
}

// Move copies src to dst and deletes src: an object store has no rename,
// so a crash between the two leaves both, never neither. With noReplace
// a taken dst is refused first.
func (b *Blobs) Move(ctx context.Context, src, dst driver.BlobKey, noReplace bool) error {
	if noReplace {
		if err := b.free(ctx, "move", dst); err != nil {
			return err
		}
	}
	if err := b.Copy(ctx, src, dst); err != nil {
		return err
	}
	return b.Delete(ctx, src)
}

// Delete removes the object at key; a missing one is no error.
func (b *Blobs) Delete(ctx context.Context, key driver.BlobKey) error {
	name, err := b.object("delete", key)
	if err != nil {
		return err
	}
	b.cache.drop(name)
	err = b.c.RemoveObject(ctx, b.cfg.Bucket, name, minio.RemoveObjectOptions{})
	if isNotFound(err) {
		return nil
	}
	return b.fail("delete", key.Path, err)
}

var _ driver.BatchDeleter = (*Blobs)(nil)

// DeleteBatch removes the objects at keys with S3's multi-object delete,
// up to 1,000 keys a request. Every valid key is removed even when
// another is refused.
func (b *Blobs) DeleteBatch(ctx context.Context, keys []driver.BlobKey) error {
	var first error
	objects := make(chan minio.ObjectInfo, len(keys))
	for _, key := range keys {
		name, err := b.object("delete", key)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		b.cache.drop(name)
		objects <- minio.ObjectInfo{Key: name}
	}
	close(objects)
	for e := range b.c.RemoveObjects(ctx, b.cfg.Bucket, objects, minio.RemoveObjectsOptions{}) {
		if e.Err != nil && !isNotFound(e.Err) && first == nil {
			first = b.fail("delete", e.ObjectName, e.Err)
		}
	}
	return first
}

// free checks that no object is at key, for a write that must not replace
// one: a taken key is a conflict, a store that cannot say is its own error.
func (b *Blobs) free(ctx context.Context, op string, key driver.BlobKey) error {
	_, err := b.Stat(ctx, key)
	switch files.KindOf(err) {
	case files.KindNotFound:
		return nil
	case files.KindInternal, files.KindUnavailable, files.KindCancelled:
		if err != nil {
			return err
		}
	}
	return files.E(op, files.KindConflict, key.Path, "a file with this name exists", fs.ErrExist)
}

// fail turns a store error into a files.Error.
func (b *Blobs) fail(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var fe *files.Error
	switch {
	case errors.As(err, &fe):
		return err
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return files.E(op, files.KindCancelled, name, "cancelled", err)
	case isNotFound(err):
		return files.E(op, files.KindNotFound, name, "no such file", err)
	case minio.ToErrorResponse(err).StatusCode == http.StatusPreconditionFailed:
		return files.E(op, files.KindConflict, name, "the object changed or exists", err)
	case unreachable(err):
		// The key is the store's, not the caller's: it is not named.
		return files.Unavailable(op, "", "the object store cannot be reached or is busy", err)
	}
	return files.E(op, files.KindInternal, name, "the object store failed", err)
}

// unreachable reports whether err says the store could not be asked (no
// connection, a connection lost, a timeout) or answered that it cannot
// serve now (500, 502, 503 SlowDown, 504): nothing a retry later cannot fix.
func unreachable(err error) bool {
	var netErr net.Error
	var urlErr *url.Error
	if errors.As(err, &netErr) || errors.As(err, &urlErr) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	switch r := minio.ToErrorResponse(err); {
	case r.StatusCode >= 500:
		return true
	case r.Code == "SlowDown" || r.Code == "ServiceUnavailable" || r.Code == "InternalError" || r.Code == "RequestTimeout":
		return true
	}
	return false
}

func isNotFound(err error) bool {
	if err == nil {
		return false
	}
	r := minio.ToErrorResponse(err)
	return r.StatusCode == http.StatusNotFound || r.Code == "NoSuchKey"
}

// clean reports whether p is a key a conversation may hold.
func clean(p string) bool {
	return p != "" && path.Clean(p) == p && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "../") && p != ".."
}
