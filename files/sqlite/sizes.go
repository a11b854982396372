package sqlite

import (
	"context"

	"convfiles/files"
)

// Sizes reads the name and size of each live file below prefix, in name
// order, from the index on (conversation, size, name), which holds both:
// no file row is read. A prefix is a range of names, since names compare
// as bytes.
func (ix *Index) Sizes(ctx context.Context, conversation, prefix string, each func(name string, size int64)) error {
	query := `SELECT name, size FROM files INDEXED BY files_live_size WHERE conversation = ? AND deleted_on IS NULL`
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
	return wrap("sizes", files.ScanSizes(rows, each))
}

// prefixEnd is the least string greater than every string that begins
// with prefix (a prefix ends in "/" here, so its last byte can grow).
func prefixEnd(prefix string) string {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return "\xff\xff\xff\xff" // past every valid UTF-8 name
}
