package driver

import (
	"sort"

	"convfiles/files"
)

// GlobPage is one page of the names that match a listing's pattern,
// chosen from candidate rows offered in listing order (an index narrows
// them with CoarseGlob, MatchGlob decides): the IDs of the page q asks
// for, and how many match in all.
type GlobPage struct {
	q     files.ListQuery
	IDs   []string
	Total int
}

// NewGlobPage starts the page q asks for.
func NewGlobPage(q files.ListQuery) *GlobPage { return &GlobPage{q: q} }

// Offer considers the next candidate row.
func (p *GlobPage) Offer(id, name string) {
	if !files.MatchGlob(p.q.Pattern, name) {
		return
	}
	if p.Total >= p.q.Offset && (p.q.Limit <= 0 || len(p.IDs) < p.q.Limit) {
		p.IDs = append(p.IDs, id)
	}
	p.Total++
}

// SortRecords orders records by key (name when empty), names breaking ties.
func SortRecords(recs []files.Record, key files.SortKey, desc bool) {
	less := func(a, b files.Record) bool {
		switch key {
		case files.SortSize:
			if a.Size != b.Size {
				return a.Size < b.Size
			}
		case files.SortModified:
			if !a.Modified.Equal(b.Modified) {
				return a.Modified.Before(b.Modified)
			}
		case files.SortDeleted:
			if a.Deleted != nil && b.Deleted != nil && !a.Deleted.Equal(*b.Deleted) {
				return a.Deleted.Before(*b.Deleted)
			}
		}
		return a.Name < b.Name
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if desc {
			return less(recs[j], recs[i])
		}
		return less(recs[i], recs[j])
	})
}
