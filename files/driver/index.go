package driver

import (
	"context"

	"convfiles/files"
)

// Change is one change to one conversation's files, recorded by
// Index.Apply in one transaction together with its event.
type Change struct {
	Type files.EventType
	// Record is the file's new state (created, modified) or the state it
	// had (deleted). Apply fills in a new ID when it is empty.
	Record files.Record
	// RenamedFrom is the old name when a modification is a rename.
	RenamedFrom string
	// Kept is the earlier content this change turned into a version.
	Kept *files.Version
	// Replaced is a file that a rename displaced; it becomes deleted.
	Replaced *files.Record
	// Keep is how many versions a file keeps; older ones are pruned.
	Keep int
}

// Applied reports what Index.Apply did.
type Applied struct {
	// Events lists what changed, oldest first: the change itself, after
	// the deletion of a file a rename displaced. Each is exactly what
	// EventLog.Events returns for it later, so a Follower can pass on the
	// published event without reading it back.
	Events []files.Event
	Record files.Record
	// Pruned lists versions beyond the keep count, dropped from the index;
	// the caller removes their bytes.
	Pruned []files.Version
}

// DiskFile is a file found on disk by a reconciliation.
type DiskFile struct {
	Name     string
	Size     int64
	DiskTime int64
	// Shared is BlobInfo.Shared: a file the index does not know whose
	// bytes are also linked elsewhere was not made by convfiles, and is
	// not taken in.
	Shared bool
	// Describe computes the MIME type and SHA-256; called only for files
	// the index does not know in this exact state.
	Describe func() (mime, sha string, err error)
}

// Index is the metadata index of a Store: the files, their versions,
// each conversation's usage and the event feed. It is one half of the
// storage seam (Blobs is the other): no type of its implementation
// crosses it, every call takes a context, and the conformance suite in
// engine/enginetest runs against every implementation. Implementations must
// be safe for concurrent use and durable: an Update that returned is
// committed.
type Index interface {
	FileIndex
	EventLog
	// Update runs fn in one write transaction, serialized with every other
	// writer of the index in any process: what fn reads through tx is
	// still true when the transaction commits, and what fn does meanwhile
	// (move a file into place) no other writer can interleave with. An
	// error from fn rolls the transaction back and is returned as is.
	Update(ctx context.Context, fn func(tx Tx) error) error
	// UpdateBatch runs fns in order in one write transaction, each as
	// Update runs one: a fn that fails has its own changes undone and its
	// error in errs (errs[i] for fns[i]); the others commit together, at
	// the cost of one commit. err is a failure of the transaction itself,
	// which then none of them survives. Concurrent writers use it to
	// share one commit (group commit).
	UpdateBatch(ctx context.Context, fns []func(tx Tx) error) (errs []error, err error)
	// Reconcile makes a conversation's live files match what its blobs
	// hold (see Reconciliation) and lists kept versions whose bytes have
	// no row (orphans) so the caller can remove them. It runs alone, with
	// no other writer, and commits in batches of bounded size, so memory
	// does not grow with the conversation: a crash between batches leaves
	// work that the next reconciliation finishes.
	Reconcile(ctx context.Context, conversation string, r Reconciliation) (orphans map[string][]int, err error)
	// RemoveConversation drops every row of a conversation and records
	// the deletion events.
	RemoveConversation(ctx context.Context, conversation string) ([]files.Event, error)
	// ContinueEvents makes the next event's number greater than after, so
	// that a client resuming with a number another store handed out (the
	// one a transfer came from) misses nothing recorded here.
	ContinueEvents(ctx context.Context, after int64) error
	// Close releases the index.
	Close() error
}

// FileIndex answers questions about files, versions and usage, as of the
// last commit.
type FileIndex interface {
	// Lookup returns the live file (conversation, name).
	Lookup(ctx context.Context, conversation, name string) (files.Record, error)
	// ByID returns a file by ID, live or deleted.
	ByID(ctx context.Context, id string) (files.Record, error)
	// List returns one page of a conversation's live files and how many
	// match in all.
	List(ctx context.Context, conversation string, q files.ListQuery) ([]files.Record, int, error)
	// Versions lists a file's kept versions, newest first.
	Versions(ctx context.Context, fileID string) ([]files.Version, error)
	// Usage returns what a conversation holds.
	Usage(ctx context.Context, conversation string) (files.Usage, error)
	// Conversations summarizes every conversation with files or versions.
	Conversations(ctx context.Context) ([]files.ConversationInfo, error)
	// ConversationIDs lists every conversation the index holds rows for.
	ConversationIDs(ctx context.Context) ([]string, error)
	// Sizes calls each with the name and size of every live file of a
	// conversation whose name begins with prefix, in name order: what a
	// tree of folder sizes needs, read without the rest of each record.
	Sizes(ctx context.Context, conversation, prefix string, each func(name string, size int64)) error
	// Files returns up to limit rows of a conversation, live or deleted,
	// ordered by ID, after the ID after ("" from the first): what a
	// transfer to another store pages through.
	Files(ctx context.Context, conversation, after string, limit int) ([]files.Record, error)
}

// EventLog is the index's feed of changes, numbered in commit order: an
// event is visible only once every event numbered before it is.
type EventLog interface {
	// Events returns up to limit events after seq, for one conversation or
	// ("") for all, oldest first.
	Events(ctx context.Context, conversation string, after int64, limit int) ([]files.Event, error)
	// EventRange returns the oldest event still kept and the newest, both
	// 0 when there are none: a client resuming from before first has
	// missed events.
	EventRange(ctx context.Context) (first, last int64, err error)
}

// ChangeNotifier is an Index that hears of commits as they happen, in
// any process (PostgreSQL's LISTEN/NOTIFY): a Store's followers then
// wait for a notice instead of polling the index for other processes'
// changes.
type ChangeNotifier interface {
	// NotifyChanges calls fn with the sequence number of every event
	// committed from now on, by any process, or with 0 when notices may
	// have been missed (the connection that hears them was lost, or has
	// just started). fn must not block. stop ends the calls.
	NotifyChanges(fn func(seq int64)) (stop func())
}

// ConcurrentCommitter is an Index whose Update locks only the
// conversations it touches and whose concurrent commits are made durable
// together by the database itself (PostgreSQL): a Store then runs each
// change in an Update of its own, at once, instead of in group commits.
type ConcurrentCommitter interface {
	ConcurrentCommits() bool
}

// UsageLookup is a Tx that reads a conversation's usage and one name's
// live file together: the two reads most changes begin with, in one round
// trip to a database across the network. found reports whether the name
// has a live file; err is a failure of either read.
type UsageLookup interface {
	UsageAndLookup(conversation, name string) (u files.Usage, rec files.Record, found bool, err error)
}

// Tx is one write transaction of an Index (see Index.Update).
type Tx interface {
	// Lookup returns the live file (conversation, name).
	Lookup(conversation, name string) (files.Record, error)
	// ByID returns a file by ID, live or deleted.
	ByID(id string) (files.Record, error)
	// IsFolder reports whether live files lie below name (name + "/" is
	// a prefix of one), as this transaction sees it: a change asks here,
	// never through the Index, so that it needs no second connection
	// while it holds its transaction.
	IsFolder(conversation, name string) (bool, error)
	// Usage returns what a conversation holds, this transaction's changes
	// included.
	Usage(conversation string) (files.Usage, error)
	// AllowanceUsage returns the bytes the allowance's conversations hold
	// together, this transaction's changes included. It first takes a
	// lock named by Allowance.Lock that lasts until the transaction ends,
	// so two transactions measuring the same conversations, in any
	// processes, take turns.
	AllowanceUsage(a files.Allowance) (int64, error)
	// Apply records a change and its events.
	Apply(c Change) (Applied, error)
	// Import records a file and its kept versions exactly as another
	// store had them (IDs, version numbers, times, sizes), with no event:
	// a transfer between stores, not a change (see ImportRows).
	Import(rec files.Record, versions []files.Version) error
}

// Reconciliation is what Index.Reconcile compares a conversation's rows
// with, and where it reports what it changed.
type Reconciliation struct {
	// Walk calls yield once for every file the blobs hold, in any order,
	// and stops at the first error yield returns. Nil: no files.
	Walk func(yield func(DiskFile) error) error
	// Versions lists the kept versions whose bytes are stored, by file ID.
	Versions map[string][]int
	// Publish receives the events of each batch once it is committed.
	// Nil: the events are recorded but not published.
	Publish func([]files.Event)
}
