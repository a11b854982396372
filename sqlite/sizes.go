package sqlite

import (
	"context"

	"convfiles/files/driver"
)

// Sizes reads the name and size of each live file below prefix, in name
// order, walking the index on (conversation, name) over the prefix's
// range of names (names compare as bytes): a folder's files are found
// without a look at the rest of the conversation.
func (ix *Index) Sizes(ctx context.Context, conversation, prefix string, each func(name string, size int64)) error {
	query := `SELECT name, size FROM files INDEXED BY files_live_name WHERE conversation = ? AND deleted_on IS NULL`
	args := []any{conversation}
	if prefix != "" {
		query += ` AND name >= ? AND name < ?`
		args = append(args, prefix, prefixEnd(prefix))
	}
	rows, err := ix.r.QueryContext(ctx, query+` ORDER BY name`, args...)
	if err != nil {
		return wrap("sizes", err)
	}
	defer rows.Close()
	return wrap("sizes", driver.ScanSizes(rows, each))
}

// prefixEnd is the least string greater than every string that begins
// with prefix: its last byte one higher. Valid UTF-8 has no 0xff byte, so
// the last byte always can be.
func prefixEnd(prefix string) string {
	return prefix[:len(prefix)-1] + string([]byte{prefix[len(prefix)-1] + 1})
}
