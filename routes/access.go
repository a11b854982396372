package routes

import (
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/mux"
)

// requestInfo is what the access log and the metrics learn of a request
// as it is served: its route and who made it.
type requestInfo struct {
	route      string
	credential string
}

// infoOf returns the requestInfo of the request w answers: the recorder
// observe put around it (no copy of the request to carry it), or a
// throwaway one when nothing observes the request.
func infoOf(w http.ResponseWriter) *requestInfo {
	if rec, ok := w.(*recorder); ok {
		return &rec.info
	}
	return &requestInfo{}
}

// timeAnswers makes the error answers of the request w answers carry
// executionTime, as the Workspace API's do (seed 002): its routes and
// the answer to a route that does not exist.
func timeAnswers(w http.ResponseWriter) {
	if rec, ok := w.(*recorder); ok {
		rec.timed = true
	}
}

// timed is h with timeAnswers.
func timed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		timeAnswers(w)
		h(w, r)
	}
}

// elapsedMS is how long ago, in milliseconds, the request w answers
// arrived, when its answers are timed.
func elapsedMS(w http.ResponseWriter) (float64, bool) {
	if rec, ok := w.(*recorder); ok && rec.timed {
		return float64(time.Since(rec.start).Microseconds()) / 1000, true
	}
	return 0, false
}

// noteRoute is mux middleware that names the matched route by its
// template: the log and the metrics never carry a conversation ID or a
// file name as a route.
func noteRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tpl, err := mux.CurrentRoute(r).GetPathTemplate(); err == nil {
			infoOf(w).route = tpl
		}
		next.ServeHTTP(w, r)
	})
}

// recorder notes the status and the bytes of an answer. It keeps the
// writer's Flush (event streams) and ReadFrom (sendfile for links).
type recorder struct {
	http.ResponseWriter
	start  time.Time
	timed  bool // error answers carry executionTime (timeAnswers)
	status int
	bytes  int64
	info   requestInfo
}

// WriteHeader notes the status.
func (rec *recorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

// Write counts the bytes.
func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += int64(n)
	return n, err
}

// ReadFrom lets io.Copy use the connection's sendfile.
func (rec *recorder) ReadFrom(r io.Reader) (int64, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	var n int64
	var err error
	if rf, ok := rec.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(struct{ io.Writer }{rec.ResponseWriter}, r)
	}
	rec.bytes += n
	return n, err
}

// Flush sends what is buffered (event streams).
func (rec *recorder) Flush() {
	if f, ok := rec.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap is for http.ResponseController.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// observe wraps one request: it gives it a requestInfo, and when it has
// been answered logs it (method, route, status, bytes, duration and the
// credential's ID, never the credential) and counts it.
func (s *Server) observe(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, start: start, info: requestInfo{route: "unmatched"}}
	if !s.accessLog && s.metrics == nil {
		serve(rec, r)
		return
	}
	info := &rec.info
	defer func() {
		took := time.Since(start)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.metrics.Request(info.route, r.Method, rec.status, took)
		if s.accessLog {
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "http request", slog.String("method", r.Method),
				slog.String("route", info.route), slog.Int("status", rec.status), slog.Int64("bytes", rec.bytes),
				slog.Duration("duration", took), slog.String("credential", info.credential), slog.String("client", clientAddr(r)))
		}
	}()
	serve(rec, r)
}
