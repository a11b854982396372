package routes

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/ops"
)

// eventKeepAlive is how long a quiet stream waits before it sends a comment
// line, which keeps proxies from closing it.
const eventKeepAlive = 15 * time.Second

// handleEvents is GET /api/events?conversation=ID: server-sent events
// file:created, file:modified, file:deleted (seed 004's payloads) and
// conversation:deleted, for one conversation or, without the parameter, all.
// Each event's id is its sequence number in the index, so a client that
// reconnects with Last-Event-ID (EventSource does by itself) gets what it
// missed; one too far behind gets a "reset" event and should reload.
// Events come from every door: in-process changes wake the stream at once,
// changes by another process (the CLI) are seen within a second.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	ix := s.store.Index()
	if ix == nil {
		writeError(w, r, s.log, files.E("events", files.KindNotFound, "", "this server keeps no event history", nil))
		return
	}
	conv := r.URL.Query().Get("conversation")
	err := ops.AuthorizeScope(r.Context(), auth.Read)
	if err == nil && conv != "" {
		if err = files.ValidateConversationID(conv); err == nil {
			err = ops.Authorize(r.Context(), conv, auth.Read)
		}
	}
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	last, err := resumePoint(r, ix)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	release := s.limits.streams.acquire(w, r)
	if release == nil {
		return
	}
	defer release()
	// The stream ends with its credential: at a token's expiry, or within
	// credentialRecheck of its key's revocation.
	watch, cancel := s.watchCredential(r)
	defer cancel()
	ctx := watch.ctx
	defer context.AfterFunc(s.closing, cancel)() // Shutdown ends the stream
	// The links it delivers never outlive the credential either.
	links := s.links
	if p := auth.FromContext(r.Context()); p != nil {
		links.Sign = links.Sign.LimitedTo(p.Expires)
	}
	follow, err := s.store.Follow(conv, last)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer follow.Close()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{})
	fmt.Fprintf(w, "retry: 2000\n\n")
	if first, _, err := ix.EventRange(ctx); err == nil && first > 0 && last < first-1 {
		fmt.Fprintf(w, "id: %d\nevent: reset\ndata: {}\n\n", first-1)
	}
	rc.Flush()
	for {
		evs, err := follow.Next(ctx, eventKeepAlive)
		if err != nil {
			if why := watch.why(); why != nil {
				data, _ := json.Marshal(map[string]string{"type": "UnauthenticatedError", "message": files.MessageOf(why)})
				fmt.Fprintf(w, "event: credential-ended\ndata: %s\n\n", data)
				rc.Flush()
			} else if ctx.Err() == nil {
				s.log.Error("event stream", "err", err)
			}
			return
		}
		if len(evs) == 0 {
			fmt.Fprint(w, ": keep-alive\n\n")
		}
		for _, ev := range evs {
			if !reaches(ctx, ev.Conversation) {
				continue
			}
			data, _ := json.Marshal(eventPayload(ev, links))
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.Seq, ev.Type, data)
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// resumePoint is the sequence number to stream after: Last-Event-ID (or
// ?last_event_id=), else the newest event, so a new client gets only new
// changes.
func resumePoint(r *http.Request, ix driver.Index) (int64, error) {
	raw := r.Header.Get("Last-Event-ID")
	if raw == "" {
		raw = r.URL.Query().Get("last_event_id")
	}
	if raw == "" {
		_, last, err := ix.EventRange(r.Context())
		return last, err
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 0 {
		return 0, files.E("events", files.KindInvalid, raw, "Last-Event-ID must be an event id this server sent", nil)
	}
	return n, nil
}

// eventPayload is an event's data: seed 004's fields for its type, plus
// the conversation and, for files that exist, their link.
func eventPayload(ev files.Event, links Links) map[string]any {
	p := map[string]any{"id": ev.ID, "conversation": ev.Conversation}
	switch ev.Type {
	case files.FileCreated:
		p["name"], p["size"], p["mime_type"], p["source_session_id"] = ev.Name, ev.Size, ev.MIME, ev.Session
		p["modified_on"], p["url"] = modifiedOn(ev.Time), links.URL(ev.Conversation, ev.Name)
	case files.FileModified:
		p["name"], p["size"], p["modified_on"], p["mime_type"] = ev.Name, ev.Size, modifiedOn(ev.Time), ev.MIME
		p["url"] = links.URL(ev.Conversation, ev.Name)
		if ev.RenamedFrom != "" {
			p["renamed_from"] = ev.RenamedFrom
		}
	case files.FileDeleted:
		p["name"] = ev.Name
	case files.ConversationDeleted:
		delete(p, "id")
	}
	return p
}
