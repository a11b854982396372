// Package sqltext holds the SQL text both of convfiles' SQL indexes
// speak, written once: the ORDER BY of a listing and the rewrite of one
// query text into each dialect's placeholders. It must never import a
// SQL driver, files' implementations or a door.
package sqltext

import "convfiles/files"

// OrderBy is the ORDER BY clause of a listing sorted by k in an SQL
// index (both name the columns alike, and each clause has an index):
// ties sort by name, in the same direction.
func OrderBy(k files.SortKey, desc bool) string {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	switch k {
	case files.SortSize:
		return "size" + dir + ", name" + dir
	case files.SortModified:
		return "modified_on" + dir + ", name" + dir
	case files.SortDeleted:
		return "deleted_on" + dir + ", name" + dir
	}
	return "name" + dir
}
