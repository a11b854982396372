package sqlite

import (
	"context"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"
)

// List returns one page of a conversation's live files and how many match
// in all. A pattern narrows the rows in SQL (sqltext.CoarseGlob) and, unless
// that is exact (sqltext.ExactGlob), is then decided on names alone; only
// the page's rows are read in full.
func (ix *Index) List(ctx context.Context, conversation string, q files.ListQuery) ([]files.Record, int, error) {
	const op = "list"
	q = q.Normalized()
	where := `conversation = ? AND deleted_on IS NULL`
	if q.Deleted {
		where = `conversation = ? AND deleted_on IS NOT NULL`
	}
	args := []any{conversation}
	if q.Prefix != "" {
		// A range of names, which the indexes on (conversation, name) walk.
		where += ` AND name >= ? AND name < ?`
		args = append(args, q.Prefix, prefixEnd(q.Prefix))
	}
	if q.Direct {
		where += ` AND instr(substr(name, ?), '/') = 0`
		args = append(args, len(q.Prefix)+1)
	}
	if q.Skip != "" {
		// GLOB, unlike LIKE, tells letter cases apart, as names do.
		where += ` AND name <> ? AND name NOT GLOB ?`
		args = append(args, q.Skip, "*/"+sqltext.GlobLiteral(q.Skip))
	}
	if q.Pattern != "" {
		where += ` AND name GLOB ?`
		args = append(args, sqltext.CoarseGlob(q.Pattern))
	}
	order := sqltext.OrderBy(q.Sort, q.Desc)
	if q.Pattern == "" || sqltext.ExactGlob(q.Pattern) {
		// SQL alone decides: it counts and pages.
		var total int
		if err := ix.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM files WHERE `+where, args...).Scan(&total); err != nil {
			return nil, 0, wrap(op, err)
		}
		limit := q.Limit
		if limit <= 0 {
			limit = -1
		}
		recs, err := ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE `+where+` ORDER BY `+order+` LIMIT ? OFFSET ?`,
			append(args, limit, q.Offset)...)
		return recs, total, err
	}
	if q.Limit <= 0 || q.Limit > 1000 {
		return ix.listAll(ctx, where, order, args, q)
	}
	// The row number is in every index on names, so the scan reads the
	// index alone; the page's rows are then read by their numbers.
	rows, err := ix.r.QueryContext(ctx, `SELECT rowid, name FROM files WHERE `+where+` ORDER BY `+order, args...)
	if err != nil {
		return nil, 0, wrap(op, err)
	}
	page := driver.NewGlobPage[int64](q)
	for rows.Next() {
		var rowid int64
		var name string
		if err := rows.Scan(&rowid, &name); err != nil {
			rows.Close()
			return nil, 0, wrap(op, err)
		}
		page.Offer(rowid, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, wrap(op, err)
	}
	if len(page.Keys) == 0 {
		return []files.Record{}, page.Total, nil
	}
	keys := make([]any, len(page.Keys))
	for i, k := range page.Keys {
		keys[i] = k
	}
	recs, err := ix.recordsByKey(ctx, "rowid", keys)
	if err != nil {
		return nil, 0, err
	}
	driver.SortRecords(recs, q.Sort, q.Desc)
	return recs, page.Total, nil
}

// listAll reads every candidate row in full in one query and keeps the
// page of those whose names match: for long pages, cheaper than a second
// query by ID.
func (ix *Index) listAll(ctx context.Context, where, order string, args []any, q files.ListQuery) ([]files.Record, int, error) {
	recs, err := ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE `+where+` ORDER BY `+order, args...)
	if err != nil {
		return nil, 0, err
	}
	kept := recs[:0]
	for _, rec := range recs {
		if files.MatchGlob(q.Pattern, rec.Name) {
			kept = append(kept, rec)
		}
	}
	total := len(kept)
	kept = kept[min(q.Offset, total):]
	if q.Limit > 0 && len(kept) > q.Limit {
		kept = kept[:q.Limit]
	}
	return kept, total, nil
}

// recordsByKey reads the rows whose column (id or rowid) is one of ids,
// in batches that stay under SQLite's limit on bound parameters.
func (ix *Index) recordsByKey(ctx context.Context, column string, ids []any) ([]files.Record, error) {
	const batch = 500
	var out []files.Record
	for len(ids) > 0 {
		n := min(batch, len(ids))
		recs, err := ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE `+column+` IN (`+placeholders(n)+`)`, ids[:n]...)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
		ids = ids[n:]
	}
	return out, nil
}

func (ix *Index) records(ctx context.Context, query string, args ...any) ([]files.Record, error) {
	rows, err := ix.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap("list", err)
	}
	defer rows.Close()
	out := []files.Record{}
	for rows.Next() {
		rec, err := scanRecord(rows)
		if err != nil {
			return nil, wrap("list", err)
		}
		out = append(out, rec)
	}
	return out, wrap("list", rows.Err())
}
