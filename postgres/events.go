package postgres

import (
	"context"
	"errors"

	"convfiles/files"
	"convfiles/internal/sqltext"

	"github.com/jackc/pgx/v5"
)

// eventsChannel is the channel every commit that adds events notifies.
const eventsChannel = "convfiles_events"

// insertEvent appends ev to the history and returns it as stored. Its
// sequence number comes from the one event_seq row, which the
// transaction then holds locked until it commits: no other transaction
// can number an event meanwhile, so numbers are handed out in commit
// order and a follower that has read up to n never misses an event
// numbered below n that commits later. That one row is the price: every
// replica's commits that add events take their turn on it. The notice
// (the event's number) reaches every listener when the transaction
// commits, and not at all when it rolls back.
func (t *writeTx) insertEvent(ev files.Event) (files.Event, error) {
	ev.Time = fromNanos(ev.Time.UnixNano())
	var b pgx.Batch
	b.Queue(addEvent, eventsChannel, ev.Conversation, string(ev.Type), ev.ID, ev.Name, ev.Size,
		ev.MIME, ev.Session, ev.RenamedFrom, ev.Time.UnixNano())
	b.Queue(usageOf, ev.Conversation) // what the change leaves: asked next (see usageAfterEvent)
	br, err := t.sendWith(&b)
	if err != nil {
		return ev, err
	}
	if err := br.QueryRow().Scan(&ev.Seq); err != nil {
		br.Close()
		return ev, err
	}
	after, err := readUsageAfter(br, ev.Conversation)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ev, err
	}
	t.usageAfter = after
	if every := min(max(t.ix.eventsKept/100, 1), 1000); ev.Seq%every == 0 {
		return ev, t.exec(pruneEvents, ev.Seq-t.ix.eventsKept)
	}
	return ev, nil
}

// Events returns up to limit events after seq, for one conversation or
// ("") for all, oldest first.
func (ix *Index) Events(ctx context.Context, conversation string, after int64, limit int) ([]files.Event, error) {
	q, args := events, []any{after, limit}
	if conversation != "" {
		q, args = eventsOf, []any{after, conversation, limit}
	}
	rows, err := ix.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, wrap("events", err)
	}
	var out []files.Event
	for rows.Next() {
		var ev files.Event
		var typ string
		var at int64
		if err := rows.Scan(&ev.Seq, &ev.Conversation, &typ, &ev.ID, &ev.Name, &ev.Size, &ev.MIME, &ev.Session, &ev.RenamedFrom, &at); err != nil {
			rows.Close()
			return nil, wrap("events", err)
		}
		ev.Type, ev.Time = files.EventType(typ), fromNanos(at)
		out = append(out, ev)
	}
	return out, wrap("events", rows.Err())
}

// EventRange returns the oldest kept event's sequence number and the
// newest, both 0 when there are none.
func (ix *Index) EventRange(ctx context.Context) (first, last int64, err error) {
	var lo, hi *int64
	// Two sub-selects, each one end of the primary key's index.
	err = ix.pool.QueryRow(ctx, sqltext.EventRange).Scan(&lo, &hi)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, nil
	}
	if lo != nil {
		first = *lo
	}
	if hi != nil {
		last = *hi
	}
	return first, last, wrap("events", err)
}

// addEvent numbers an event, stores it and announces its number, in one
// statement: one round trip where three were.
const addEvent = `WITH s AS (UPDATE event_seq SET seq = seq + 1 RETURNING seq),
	e AS (INSERT INTO events (seq, conversation, type, file_id, name, size, mime_type, source_session_id, renamed_from, time)
		SELECT s.seq, $2::text, $3::text, $4::text, $5::text, $6::bigint, $7::text, $8::text, $9::text, $10::bigint FROM s
		RETURNING seq)
SELECT e.seq FROM e, pg_notify($1::text, e.seq::text)`
