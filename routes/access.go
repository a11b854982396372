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
	if !s.accessLog && s.metrics == nil {
		serve(w, r)
		return
	}
	start := time.Now()
	rec := &recorder{ResponseWriter: w, info: requestInfo{route: "unmatched"}}
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
