package files

import (
	"strings"
	"time"
)

// Info describes one file of a Space.
type Info struct {
	// ID is the file's ID in the index; "" without one.
	ID      string    `json:"id,omitempty"`
	Name    string    `json:"name"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modified"`
	// Replaced is set by writes only: the size of the file the write
	// replaced, or -1 when it created the file.
	Replaced int64 `json:"-"`
}

// KeepFile is the empty file that keeps a made folder when it holds
// nothing else, as Git users keep empty folders: folders are the names'
// prefixes, in every store. It is never counted as one of the files.
const KeepFile = ".keep"

// IsKeepFile reports whether a file of that name and size is a made
// folder's KeepFile.
func IsKeepFile(name string, size int64) bool {
	return size == 0 && (name == KeepFile || strings.HasSuffix(name, "/"+KeepFile))
}

// ConversationInfo summarizes one conversation's folder.
type ConversationInfo struct {
	ID string `json:"id"`
	// Files counts the files, a made folder's KeepFile not among them.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// VersionBytes is what the kept earlier versions hold; they count
	// toward the conversation's quota too.
	VersionBytes int64     `json:"version_bytes"`
	Modified     time.Time `json:"modified"` // the newest modification of any file, or of the folder when empty
}

// DirEntry is one entry of a folder listing.
type DirEntry struct {
	Name  string `json:"name"`
	IsDir bool   `json:"is_dir"`
}

// WriteOptions tunes one write.
type WriteOptions struct {
	// Budget, when set, is charged every byte written (the per-execution cap).
	Budget *Budget
	// NoReplace makes the write fail with KindConflict when the name
	// exists, decided atomically on disk, even against other processes.
	NoReplace bool
	// IfUnchanged makes the write fail with ErrChanged unless the file is
	// still the one read: the same size and modification time as this
	// Info (from Open or ReadFile). A read-modify-write passes it so that
	// a change made meanwhile, by any writer, is never silently undone.
	IfUnchanged *Info
	// Source and Session record where a new file came from; "" means
	// SourceCreated. An overwrite keeps the file's original ones.
	Source  Source
	Session string
	// DerivedFrom records the ID of the file a new file is made from
	// (with Source SourceDerived); an overwrite keeps the file's own.
	DerivedFrom string
}

// DefaultVersions is how many earlier versions a file keeps by default.
const DefaultVersions = 5

// SniffBytes is how much of a file's head Options.Sniff is given: as much
// as content.SniffLen (files may not import content; a test in
// cmd/convfiles keeps the two equal).
const SniffBytes = 3072
