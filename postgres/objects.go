package postgres

import (
	"context"

	"convfiles/files/driver"

	"github.com/jackc/pgx/v5"
)

var _ driver.ObjectIndex = (*Index)(nil)

// Referenced returns which of paths a row of the conversation names.
func (ix *Index) Referenced(ctx context.Context, conversation string, paths []string) (map[string]bool, error) {
	rows, err := ix.pool.Query(ctx, `SELECT blob FROM files WHERE conversation = $1 AND blob = ANY($2)
		UNION SELECT blob FROM versions WHERE conversation = $1 AND blob = ANY($2)`, conversation, paths)
	if err != nil {
		return nil, wrap("collect garbage", err)
	}
	named, err := pgx.CollectRows(rows, pgx.RowTo[string])
	out := make(map[string]bool, len(named))
	for _, p := range named {
		out[p] = true
	}
	return out, wrap("collect garbage", err)
}
