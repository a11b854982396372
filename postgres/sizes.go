package postgres

import (
	"context"

	"convfiles/files/driver"
)

// Sizes reads the name and size of each live file below prefix, in name
// order (as bytes), and nothing else of its row.
func (ix *Index) Sizes(ctx context.Context, conversation, prefix string, each func(name string, size int64)) error {
	rows, err := ix.pool.Query(ctx, `SELECT name, size FROM files WHERE conversation = $1 AND deleted_on IS NULL
		AND starts_with(name, $2) ORDER BY name COLLATE "C"`, conversation, prefix)
	if err != nil {
		return wrap("sizes", err)
	}
	defer rows.Close()
	return wrap("sizes", driver.ScanSizes(rows, each))
}
