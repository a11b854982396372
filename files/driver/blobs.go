package driver

import (
	"context"
	"io"

	"convfiles/files"
)

// Blobs is where the bytes of files live: one half of the storage seam
// (Index is the other). The Space decides what a change means (names,
// limits, versions, conflicts) and asks Blobs only to store, find and
// drop bytes, so a store that keeps them elsewhere (an object store)
// implements these calls and nothing else. Every call takes a context; no
// type of an implementation (an *os.File, an SDK's object) crosses the
// seam, and the conformance suite in files/driver/blobtest holds every
// implementation to the same contract.
//
// Keys are validated by the Space before they get here (see ValidateName);
// an implementation must still never let a key reach outside its
// conversation.
type Blobs interface {
	// Create starts new bytes that will most likely be put at key. They are
	// invisible until BlobWriter.Put.
	Create(ctx context.Context, key BlobKey) (BlobWriter, error)
	// Open opens the bytes at key for reading, in order or at any offset.
	// It fails with KindNotFound when there are none.
	Open(ctx context.Context, key BlobKey) (files.Blob, error)
	// Stat describes the bytes at key. It fails with KindNotFound when
	// there are none, KindConflict when key is a folder, and KindForbidden
	// when something that is not a file's bytes (a link) is there.
	Stat(ctx context.Context, key BlobKey) (files.BlobInfo, error)
	// Copy makes dst hold the bytes of src, replacing what dst held, as an
	// object store's server-side copy: nothing passes through the caller.
	Copy(ctx context.Context, src, dst BlobKey) error
	// Move moves the bytes of src to dst, atomically where the store can.
	// With noReplace it fails with KindConflict when dst exists, decided
	// by the store so two callers in any processes cannot both win.
	Move(ctx context.Context, src, dst BlobKey, noReplace bool) error
	// Delete removes the bytes at key; a missing key is not an error.
	Delete(ctx context.Context, key BlobKey) error
	// List calls fn for every blob of a conversation below dir ("" for
	// its files; a reserved folder such as the versions folder is listed
	// only when dir names it), in no particular order. An error from fn
	// stops the listing and is returned.
	List(ctx context.Context, conversation, dir string, fn func(files.BlobInfo) error) error
	// Conversations calls fn with the ID of every conversation that has
	// blobs.
	Conversations(ctx context.Context, fn func(id string) error) error
	// RemoveConversation removes every blob of a conversation. What it
	// cannot remove at once is out of sight and removed later.
	RemoveConversation(ctx context.Context, id string) error
}

// ObjectStore is Blobs whose keys are best written once and never
// renamed or rewritten: an S3-compatible object store, where a rename is
// a copy and a replace is seen half-way by a reader. A Store over one
// keeps each content of each file in an object of its own, under a new
// key, and its index row names the object (Record.Blob): a write puts
// the object first and commits the row after, a rename or a delete
// changes only rows, and a crash in between leaves an object that no row
// names, which Store.CollectGarbage removes. No row ever names missing
// bytes.
type ObjectStore interface {
	Blobs
	// Location names where a conversation's objects live, for display
	// (s3://bucket/prefix/conversation).
	Location(conversation string) string
	// OpenWritten opens an object that was written once and never
	// changes, as its row describes it (info): no request asks the store
	// about it first, so a read is one request. A missing object fails
	// with KindNotFound, when it is opened or at the first read.
	OpenWritten(ctx context.Context, key BlobKey, info files.BlobInfo) (files.Blob, error)
}

// BatchDeleter is Blobs that removes many keys in one request (S3's
// multi-object delete): a Store's background removal of pruned and
// replaced bytes gathers them and sends them together, so a stream of
// overwrites does not cost the store a request each to clean up.
type BatchDeleter interface {
	// DeleteBatch removes the bytes at every key; missing keys are not
	// errors. An error names one key that could not be removed; the
	// others may have been.
	DeleteBatch(ctx context.Context, keys []BlobKey) error
}

// BlobKey names the bytes of one file or one kept version: a path inside
// one conversation (Conversation is "" for a standalone folder).
type BlobKey struct {
	Conversation string
	Path         string
}

// BlobWriter is new bytes on their way into Blobs. They may be written
// out of order (Seek) and read back (ReadAt) while they are written.
type BlobWriter interface {
	io.Writer
	io.Seeker
	io.ReaderAt
	// Seal makes the written bytes durable, before anyone can see them,
	// and describes them. Writes after Seal are refused.
	Seal(ctx context.Context) (files.BlobInfo, error)
	// Put makes the sealed bytes the content of key, atomically: a reader
	// sees the old bytes or the new, never a part. With noReplace it fails
	// with KindConflict when key exists.
	Put(ctx context.Context, key BlobKey, noReplace bool) error
	// Close finishes: after Put it makes the placement durable; without a
	// Put it throws the bytes away. It is safe to call more than once.
	Close() error
}

// ObjectIndex is an Index that can tell which objects its rows name: the
// garbage collector of an object store asks it.
type ObjectIndex interface {
	// Referenced returns which of paths a row of the conversation names:
	// a file's, live or deleted, or a kept version's.
	Referenced(ctx context.Context, conversation string, paths []string) (map[string]bool, error)
}
