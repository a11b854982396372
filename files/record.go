package files

import (
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
	// Skip, when set, is a base name whose files are left out, in any
	// folder: the .keep files that hold made folders, for a person's view.
	Skip   string
	Sort   SortKey
	Desc   bool
	Limit  int // 0 means no limit
	Offset int
}

// Skips reports whether q leaves the file name out (see Skip).
func (q ListQuery) Skips(name string) bool {
	return q.Skip != "" && (name == q.Skip || len(name) > len(q.Skip) && name[len(name)-len(q.Skip)-1] == '/' && name[len(name)-len(q.Skip):] == q.Skip)
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

// Usage is what one conversation holds: its live files, and the bytes of
// those files and of their kept versions, which count toward its quota.
type Usage struct {
	Bytes int64
	Files int
}
