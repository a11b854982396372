package postgres

import (
	"context"
	"strconv"
	"strings"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/sqltext"

	"github.com/jackc/pgx/v5"
)

// likePattern turns sqltext.CoarseGlob's expression into a LIKE pattern
// with the same meaning: * is %, ? is _, a one-character class is that
// character, and LIKE's own %, _ and \ are escaped.
func likePattern(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '*':
			b.WriteByte('%')
		case c == '?':
			b.WriteByte('_')
		case c == '[' && i+2 < len(glob) && glob[i+2] == ']':
			i++
			writeLiteral(&b, glob[i])
			i++
		default:
			writeLiteral(&b, c)
		}
	}
	return b.String()
}

// likeLiteral is a LIKE pattern that matches s and nothing else.
func likeLiteral(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		writeLiteral(&b, s[i])
	}
	return b.String()
}

func writeLiteral(b *strings.Builder, c byte) {
	if c == '%' || c == '_' || c == '\\' {
		b.WriteByte('\\')
	}
	b.WriteByte(c)
}

// List returns one page of a conversation's live files and how many match
// in all. A pattern narrows the rows in SQL (sqltext.CoarseGlob as LIKE)
// and, unless that is exact (sqltext.ExactGlob), is then decided on names
// alone; only the page's rows are read in full.
func (ix *Index) List(ctx context.Context, conversation string, q files.ListQuery) ([]files.Record, int, error) {
	const op = "list"
	q = q.Normalized()
	where := `conversation = $1 AND deleted_on IS NULL`
	if q.Deleted {
		where = `conversation = $1 AND deleted_on IS NOT NULL`
	}
	args := []any{conversation}
	if q.Prefix != "" {
		args = append(args, q.Prefix)
		where += ` AND starts_with(name, $` + strconv.Itoa(len(args)) + `)`
	}
	if q.Direct {
		args = append(args, len(q.Prefix)+1)
		where += ` AND strpos(substr(name, $` + strconv.Itoa(len(args)) + `), '/') = 0`
	}
	if q.Skip != "" {
		args = append(args, q.Skip, "%/"+likeLiteral(q.Skip))
		where += ` AND name <> $` + strconv.Itoa(len(args)-1) + ` AND name NOT LIKE $` + strconv.Itoa(len(args))
	}
	if q.Pattern != "" {
		args = append(args, likePattern(sqltext.CoarseGlob(q.Pattern)))
		where += ` AND name LIKE $` + strconv.Itoa(len(args))
	}
	order := sqltext.OrderBy(q.Sort, q.Desc)
	if q.Pattern == "" || sqltext.ExactGlob(q.Pattern) {
		// SQL alone decides: it counts and pages.
		var total int64
		if err := ix.pool.QueryRow(ctx, `SELECT COUNT(*) FROM files WHERE `+where, args...).Scan(&total); err != nil {
			return nil, 0, wrap(op, err)
		}
		args = append(args, q.Offset)
		page := ` OFFSET $` + strconv.Itoa(len(args))
		if q.Limit > 0 {
			args = append(args, q.Limit)
			page += ` LIMIT $` + strconv.Itoa(len(args))
		}
		recs, err := ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE `+where+` ORDER BY `+order+page, args...)
		return recs, int(total), err
	}
	rows, err := ix.pool.Query(ctx, `SELECT id, name FROM files WHERE `+where+` ORDER BY `+order, args...)
	if err != nil {
		return nil, 0, wrap(op, err)
	}
	page := driver.NewGlobPage[string](q)
	var id, name string
	if _, err := pgx.ForEachRow(rows, []any{&id, &name}, func() error { page.Offer(id, name); return nil }); err != nil {
		return nil, 0, wrap(op, err)
	}
	if len(page.Keys) == 0 {
		return []files.Record{}, page.Total, nil
	}
	recs, err := ix.records(ctx, `SELECT `+sqltext.FileColumns+` FROM files WHERE id = ANY($1)`, page.Keys)
	if err != nil {
		return nil, 0, err
	}
	driver.SortRecords(recs, q.Sort, q.Desc)
	return recs, page.Total, nil
}

func (ix *Index) records(ctx context.Context, query string, args ...any) ([]files.Record, error) {
	rows, err := ix.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, wrap("list", err)
	}
	out := []files.Record{}
	for rows.Next() {
		rec, err := scanRecord(rows)
		if err != nil {
			rows.Close()
			return nil, wrap("list", err)
		}
		out = append(out, rec)
	}
	return out, wrap("list", rows.Err())
}
