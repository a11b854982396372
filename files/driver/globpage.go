package driver

import (
	"sort"

	"convfiles/files"
)

// GlobPage is one page of the names that match a listing's pattern,
// chosen from candidate rows offered in listing order (an index narrows
// them with CoarseGlob, MatchGlob decides): the keys of the page q asks
// for (whatever finds a row again fastest: an ID, a row number), and how
// many match in all.
type GlobPage[K any] struct {
	q     files.ListQuery
	Keys  []K
	Total int
}

// NewGlobPage starts the page q asks for.
func NewGlobPage[K any](q files.ListQuery) *GlobPage[K] { return &GlobPage[K]{q: q} }

// Offer considers the next candidate row.
func (p *GlobPage[K]) Offer(key K, name string) {
	if !files.MatchGlob(p.q.Pattern, name) {
		return
	}
	if p.Total >= p.q.Offset && (p.q.Limit <= 0 || len(p.Keys) < p.q.Limit) {
		p.Keys = append(p.Keys, key)
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
