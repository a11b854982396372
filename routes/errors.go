package routes

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"convfiles/files"
)

// envelope is the JSON shape of every API answer, as the Workspace API of
// seed 002 defines it.
type envelope struct {
	Success bool       `json:"success"`
	Result  any        `json:"result,omitempty"`
	Error   *errorBody `json:"error,omitempty"`
	// ExecutionTime is set on the answers of the Workspace API's routes,
	// errors included: milliseconds the work (or, for an error, the
	// request so far) took (seed 002).
	ExecutionTime *float64 `json:"executionTime,omitempty"`
}

type errorBody struct {
	Type    string         `json:"type"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// statusOf is the one place where error kinds become HTTP statuses and
// error types.
func statusOf(kind files.Kind) (int, string) {
	switch kind {
	case files.KindInvalid:
		return http.StatusBadRequest, "ValidationError"
	case files.KindNotFound:
		return http.StatusNotFound, "FileNotFoundError"
	case files.KindConflict:
		return http.StatusConflict, "ConflictError"
	case files.KindTooLarge:
		return http.StatusRequestEntityTooLarge, "ValidationError"
	case files.KindForbidden:
		return http.StatusForbidden, "PermissionError"
	case files.KindCancelled:
		return http.StatusServiceUnavailable, "CancelledError"
	case files.KindNoSpace:
		return http.StatusInsufficientStorage, "StorageFullError"
	case files.KindUnauthenticated:
		return http.StatusUnauthorized, "AuthenticationError"
	case files.KindUnavailable:
		return http.StatusServiceUnavailable, "UnavailableError"
	}
	return http.StatusInternalServerError, "InternalError"
}

// retryAfterUnavailable is the Retry-After of an UnavailableError, in
// seconds: long enough for a restarted database or object store to come
// back, short enough that a client does not wait on a store that is fine.
const retryAfterUnavailable = "2"

// writeError answers err as a JSON envelope. Internal errors are logged
// with their cause and shown to the client only as "internal error".
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if bodyStalled(r) {
		// The request body stalled past its idle time: whatever failed
		// after (a write cancelled with the request) failed for that.
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusRequestTimeout, envelope{Error: &errorBody{Type: "RequestTimeout", Message: stalledMessage}})
		return
	}
	if errors.Is(r.Context().Err(), context.Canceled) && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		// The client went away while it waited: nobody reads an answer,
		// and nothing failed here. (Past the server's own deadline the
		// context ends with DeadlineExceeded instead, and the client,
		// still there, is told to retry.)
		return
	}
	kind := files.KindOf(err)
	if kind == files.KindInternal && errors.Is(err, context.DeadlineExceeded) {
		err, kind = files.Unavailable("request", "", "the server could not finish this in time", err), files.KindUnavailable
	}
	status, typ := statusOf(kind)
	body := &errorBody{Type: typ, Message: files.MessageOf(err)}
	var fe *files.Error
	if errors.As(err, &fe) && kind != files.KindInternal && fe.Name != "" {
		body.Details = map[string]any{"name": fe.Name, "reason": kind.String()}
	}
	switch kind {
	case files.KindInternal:
		log.Error("request failed", "method", r.Method, "path", r.URL.EscapedPath(), "err", err)
	case files.KindUnavailable:
		log.Warn("store unavailable", "method", r.Method, "path", r.URL.EscapedPath(), "err", err)
		w.Header().Set("Retry-After", retryAfterUnavailable)
	}
	writeJSON(w, status, envelope{Error: body})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	if env, ok := v.(envelope); ok && env.Error != nil && env.ExecutionTime == nil {
		if ms, timed := elapsedMS(w); timed {
			env.ExecutionTime = &ms
			v = env
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeResult(w http.ResponseWriter, result any) {
	writeJSON(w, http.StatusOK, envelope{Success: true, Result: result})
}
