package sqlite

import (
	"context"

	"convfiles/files/driver"
)

var _ driver.ObjectIndex = (*Index)(nil)

// Referenced returns which of paths a row of the conversation names.
func (ix *Index) Referenced(ctx context.Context, conversation string, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	const batch = 500
	for len(paths) > 0 {
		n := min(batch, len(paths))
		args := []any{conversation}
		for _, p := range paths[:n] {
			args = append(args, p)
		}
		args = append(args, args...) // once for files, once for versions
		in := placeholders(n)
		rows, err := ix.r.QueryContext(ctx, `SELECT blob FROM files WHERE conversation = ? AND blob IN (`+in+`)
			UNION SELECT blob FROM versions WHERE conversation = ? AND blob IN (`+in+`)`, args...)
		if err != nil {
			return nil, wrap("collect garbage", err)
		}
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				rows.Close()
				return nil, wrap("collect garbage", err)
			}
			out[p] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, wrap("collect garbage", err)
		}
		paths = paths[n:]
	}
	return out, nil
}
