package sqlite

import (
	"context"
	"database/sql"

	"convfiles/files"
	"convfiles/internal/sqltext"
)

// DefaultEventsKept is how many events the history holds; older ones are
// pruned, and a client resuming from before them is told to reload.
const DefaultEventsKept = 100_000

// KeepEvents sets how many events the history holds (at least 1).
func (ix *Index) KeepEvents(n int) { ix.eventsKept = max(int64(n), 1) }

// insertEvent appends ev to the history and returns it as stored, with
// its sequence number and its time as Events reads it back: a follower
// handed the event at once sees the same as one that queries. Every
// hundredth of the history's length (at most every 1000th
// event) it prunes the oldest.
func (ix *Index) insertEvent(tx *stmtTx, ev files.Event) (files.Event, error) {
	res, err := tx.Exec(`INSERT INTO events (conversation, type, file_id, name, size, mime_type, source_session_id,
			renamed_from, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.Conversation, string(ev.Type), ev.ID, ev.Name, ev.Size, ev.MIME, ev.Session, ev.RenamedFrom, stamp(ev.Time))
	if err != nil {
		return ev, err
	}
	if ev.Seq, err = res.LastInsertId(); err != nil {
		return ev, err
	}
	ev.Time = ev.Time.UTC().Round(0) // what parseStamp(stamp(ev.Time)) gives
	if every := min(max(ix.eventsKept/100, 1), 1000); ev.Seq%every == 0 {
		_, err = tx.Exec(sqltext.PruneEvents, ev.Seq-ix.eventsKept)
	}
	return ev, err
}

// Events returns up to limit events after seq, for one conversation or
// ("") for all, oldest first.
func (ix *Index) Events(ctx context.Context, conversation string, after int64, limit int) ([]files.Event, error) {
	q, args := sqltext.Events, []any{after, limit}
	if conversation != "" {
		q, args = sqltext.EventsOf, []any{after, conversation, limit}
	}
	rows, err := ix.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("events", err)
	}
	defer rows.Close()
	var out []files.Event
	for rows.Next() {
		var ev files.Event
		var typ, at string
		if err := rows.Scan(&ev.Seq, &ev.Conversation, &typ, &ev.ID, &ev.Name, &ev.Size, &ev.MIME, &ev.Session, &ev.RenamedFrom, &at); err != nil {
			return nil, wrap("events", err)
		}
		ev.Type, ev.Time = files.EventType(typ), parseStamp(at)
		out = append(out, ev)
	}
	return out, wrap("events", rows.Err())
}

// EventRange returns the oldest kept event's sequence number and the
// newest, both 0 when there are none.
func (ix *Index) EventRange(ctx context.Context) (first, last int64, err error) {
	var lo, hi sql.NullInt64
	// Two sub-selects are two probes of the primary key; MIN and MAX
	// together in one select are planned as a scan of the whole table.
	err = ix.r.QueryRowContext(ctx, sqltext.EventRange).Scan(&lo, &hi)
	return lo.Int64, hi.Int64, wrap("events", err)
}
