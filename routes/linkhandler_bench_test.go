package routes

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"

	"convfiles/files"
)

// discardWriter is a ResponseWriter that keeps nothing, so that a
// handler's own work is what is measured: no connection, no recorder.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	w.status = code
}
func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}

// BenchmarkLinkHandler is the server's own CPU per request for a 4 KiB
// link, without the connection both servers share: convfiles' handler,
// http.FileServer's on the same file, and a bare handler that writes
// 4 KiB from memory (the floor).
//
//	go test ./routes -run '^$' -bench LinkHandler -benchmem -count 6
func BenchmarkLinkHandler(b *testing.B) {
	store, dir, sp := benchStore(b)
	defer sp.Close()
	body := bytes.Repeat([]byte{'z'}, 4<<10)
	if _, err := sp.WriteBytes(context.Background(), "small.bin", body, files.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	handlers := []struct {
		name string
		h    http.Handler
	}{
		{"convfiles", New(Config{Store: store, Metrics: benchMetrics(), Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})},
		{"fileserver", http.StripPrefix("/files/bench/", http.FileServer(http.Dir(filepath.Join(dir, "bench"))))},
		{"bare", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(body)
		})},
	}
	for _, hc := range handlers {
		b.Run(hc.name, func(b *testing.B) {
			req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:8080/files/bench/small.bin", nil)
			req.RemoteAddr = "127.0.0.1:50000"
			b.ReportAllocs()
			for b.Loop() {
				w := &discardWriter{h: http.Header{}}
				hc.h.ServeHTTP(w, req)
				if w.status != http.StatusOK || w.n != len(body) {
					b.Fatalf("%d, %d bytes", w.status, w.n)
				}
			}
		})
	}
}
