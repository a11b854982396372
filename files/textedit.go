package files

import (
	"fmt"
)

// TextEdit replaces Old, which must occur exactly once in the file (every
// occurrence with ReplaceAll), by New.
type TextEdit struct {
	Old        string `json:"old"`
	New        string `json:"new"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// EditResult is what an exact-text edit did: the file after it (its
// size only, on a dry run), how many replacements, and the unified diff
// (cut at MaxEditDiff, which DiffTruncated says).
type EditResult struct {
	Info          Info
	Replacements  int
	Diff          string
	DiffTruncated bool
}

// CheckEdits refuses a list of edits that could never apply: none, too
// many, an empty old text, or one that changes nothing.
func CheckEdits(name string, edits []TextEdit) error {
	if len(edits) == 0 || len(edits) > MaxEdits {
		return E("edit", KindInvalid, name, fmt.Sprintf("edits must list 1 to %d replacements of {old, new}", MaxEdits), nil)
	}
	for i, e := range edits {
		if e.Old == "" {
			return E("edit", KindInvalid, name, fmt.Sprintf("edit %d: old is empty; quote the exact text to replace, with enough lines around it to match once", i+1), nil)
		}
		if e.Old == e.New {
			return E("edit", KindInvalid, name, fmt.Sprintf("edit %d: old and new are the same text; nothing would change", i+1), nil)
		}
	}
	return nil
}

// Exact-text edit bounds: the file an edit reads, the replacements of
// one edit, and the diff it answers.
const (
	MaxEditFile = 8 << 20
	MaxEdits    = 100
	MaxEditDiff = 64 << 10
)
