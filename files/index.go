package files

import (
	"context"
	"strings"
	"time"
)

// Source says where a file came from (seed 004's agent_files.source).
type Source string

// The sources of a file.
const (
	SourceUpload  Source = "upload"  // sent by a user
	SourceCreated Source = "created" // written by an agent or a script
	SourceDerived Source = "derived" // made from another file (copy, restore, conversion)
)

// Record is what the index knows about one file: seed 004's agent_files
// columns plus the conversation, the content's SHA-256 and a version number
// that grows with every write. The bytes themselves live on disk, which is
// the truth the index is reconciled with.
type Record struct {
	ID           string `json:"id"`
	Conversation string `json:"conversation"`
	Name         string `json:"name"`
	MIME         string `json:"mime_type"`
	Size         int64  `json:"size"`
	SHA256       string `json:"sha256"`
	Version      int    `json:"version"`
	Source       Source `json:"source"`
	Session      string `json:"source_session_id"`
	// DerivedFrom is the ID of the file a derived file was made from.
	DerivedFrom string    `json:"derived_from,omitempty"`
	Created     time.Time `json:"created_on"`
	Modified    time.Time `json:"modified_on"`
	// Deleted is set on a deleted file whose versions are still kept.
	Deleted *time.Time `json:"deleted_on,omitempty"`
	// DiskTime is the file's modification time on disk in nanoseconds; a
	// mismatch at start-up means a change the index missed.
	DiskTime int64 `json:"-"`
	// Blob is the path of the object holding the bytes when the blobs are
	// an object store (see ObjectStore); "" when they live at the name.
	Blob string `json:"-"`
}

// Version is one kept earlier content of a file.
type Version struct {
	FileID  string    `json:"file_id"`
	Version int       `json:"version"`
	Name    string    `json:"name"` // the file's name when this content was replaced
	MIME    string    `json:"mime_type"`
	Size    int64     `json:"size"`
	SHA256  string    `json:"sha256"`
	Saved   time.Time `json:"saved_on"` // when it was written
	Kept    time.Time `json:"kept_on"`  // when a write or a deletion replaced it
	Reason  string    `json:"reason"`   // "overwrite" or "delete"
	// Blob is the path of the object holding the bytes in an object
	// store; "" when they live in the versions folder.
	Blob string `json:"-"`
}

// SortKey orders a listing.
type SortKey string

// The sort keys of a listing.
const (
	SortName     SortKey = "name"
	SortSize     SortKey = "size"
	SortModified SortKey = "modified"
	// SortDeleted orders deleted files by when they were deleted.
	SortDeleted SortKey = "deleted"
)

// OrderBy is the ORDER BY clause of a listing sorted by k in an SQL
// index (both name the columns alike, and each clause has an index):
// ties sort by name, in the same direction.
func (k SortKey) OrderBy(desc bool) string {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	switch k {
	case SortSize:
		return "size" + dir + ", name" + dir
	case SortModified:
		return "modified_on" + dir + ", name" + dir
	case SortDeleted:
		return "deleted_on" + dir + ", name" + dir
	}
	return "name" + dir
}

// ListQuery selects and orders a page of a conversation's files.
type ListQuery struct {
	Pattern string // a glob (see MatchGlob); "" matches every file
	// Prefix keeps only the names that begin with it ("dir/" for what a
	// folder holds, at any depth).
	Prefix string
	// Direct keeps only the names directly in Prefix's folder (the top
	// when Prefix is ""), not in its subfolders.
	Direct bool
	// Deleted lists deleted files whose versions are kept instead of live
	// ones, the most recently deleted first unless Sort says otherwise.
	Deleted bool
	Sort    SortKey
	Desc    bool
	Limit   int // 0 means no limit
	Offset  int
}

// Normalized is q with its defaults filled in: deleted files sort by
// when they were deleted, newest first, unless q says otherwise.
func (q ListQuery) Normalized() ListQuery {
	if q.Deleted && q.Sort == "" {
		q.Sort, q.Desc = SortDeleted, true
	}
	return q
}

// InFolder reports whether name is one q's Prefix and Direct keep.
func (q ListQuery) InFolder(name string) bool {
	rest, ok := strings.CutPrefix(name, q.Prefix)
	return ok && (!q.Direct || !strings.Contains(rest, "/"))
}

// Change is one change to one conversation's files, recorded by
// Index.Apply in one transaction together with its event.
type Change struct {
	Type EventType
	// Record is the file's new state (created, modified) or the state it
	// had (deleted). Apply fills in a new ID when it is empty.
	Record Record
	// RenamedFrom is the old name when a modification is a rename.
	RenamedFrom string
	// Kept is the earlier content this change turned into a version.
	Kept *Version
	// Replaced is a file that a rename displaced; it becomes deleted.
	Replaced *Record
	// Keep is how many versions a file keeps; older ones are pruned.
	Keep int
}

// Applied reports what Index.Apply did.
type Applied struct {
	// Events lists what changed, oldest first: the change itself, after
	// the deletion of a file a rename displaced. Each is exactly what
	// EventLog.Events returns for it later, so a Follower can pass on the
	// published event without reading it back.
	Events []Event
	Record Record
	// Pruned lists versions beyond the keep count, dropped from the index;
	// the caller removes their bytes.
	Pruned []Version
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
// files/filestest runs against every implementation. Implementations must
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
	RemoveConversation(ctx context.Context, conversation string) ([]Event, error)
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
	Lookup(ctx context.Context, conversation, name string) (Record, error)
	// ByID returns a file by ID, live or deleted.
	ByID(ctx context.Context, id string) (Record, error)
	// List returns one page of a conversation's live files and how many
	// match in all.
	List(ctx context.Context, conversation string, q ListQuery) ([]Record, int, error)
	// Versions lists a file's kept versions, newest first.
	Versions(ctx context.Context, fileID string) ([]Version, error)
	// Usage returns what a conversation holds.
	Usage(ctx context.Context, conversation string) (Usage, error)
	// Conversations summarizes every conversation with files or versions.
	Conversations(ctx context.Context) ([]ConversationInfo, error)
	// ConversationIDs lists every conversation the index holds rows for.
	ConversationIDs(ctx context.Context) ([]string, error)
	// Sizes calls each with the name and size of every live file of a
	// conversation whose name begins with prefix, in name order: what a
	// tree of folder sizes needs, read without the rest of each record.
	Sizes(ctx context.Context, conversation, prefix string, each func(name string, size int64)) error
	// Files returns up to limit rows of a conversation, live or deleted,
	// ordered by ID, after the ID after ("" from the first): what a
	// transfer to another store pages through.
	Files(ctx context.Context, conversation, after string, limit int) ([]Record, error)
}

// EventLog is the index's feed of changes, numbered in commit order: an
// event is visible only once every event numbered before it is.
type EventLog interface {
	// Events returns up to limit events after seq, for one conversation or
	// ("") for all, oldest first.
	Events(ctx context.Context, conversation string, after int64, limit int) ([]Event, error)
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

// Tx is one write transaction of an Index (see Index.Update).
type Tx interface {
	// Lookup returns the live file (conversation, name).
	Lookup(conversation, name string) (Record, error)
	// ByID returns a file by ID, live or deleted.
	ByID(id string) (Record, error)
	// IsFolder reports whether live files lie below name (name + "/" is
	// a prefix of one), as this transaction sees it: a change asks here,
	// never through the Index, so that it needs no second connection
	// while it holds its transaction.
	IsFolder(conversation, name string) (bool, error)
	// Usage returns what a conversation holds, this transaction's changes
	// included.
	Usage(conversation string) (Usage, error)
	// AllowanceUsage returns the bytes the allowance's conversations hold
	// together, this transaction's changes included. It first takes a
	// lock named by Allowance.Lock that lasts until the transaction ends,
	// so two transactions measuring the same conversations, in any
	// processes, take turns.
	AllowanceUsage(a Allowance) (int64, error)
	// Apply records a change and its events.
	Apply(c Change) (Applied, error)
	// Import records a file and its kept versions exactly as another
	// store had them (IDs, version numbers, times, sizes), with no event:
	// a transfer between stores, not a change (see ImportRows).
	Import(rec Record, versions []Version) error
}

// Usage is what one conversation holds: its live files, and the bytes of
// those files and of their kept versions, which count toward its quota.
type Usage struct {
	Bytes int64
	Files int
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
	Publish func([]Event)
}
