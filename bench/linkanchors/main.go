// Command linkanchors serves the anchors bench/links.sh measures convfiles'
// links against: Go's http.FileServer over a folder, a bare handler that
// answers the same bytes from memory (the floor of net/http), and the bare
// handler with the nine headers a convfiles link carries, prepared once
// (what net/http costs to send them).
//
//	go run ./bench/linkanchors -dir DIR -file NAME -fileserver 127.0.0.1:P1 -bare 127.0.0.1:P2 -headers 127.0.0.1:P3
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

func main() {
	dir := flag.String("dir", "", "the folder http.FileServer serves")
	file := flag.String("file", "", "the file in it the bare handler answers from memory")
	fsAddr := flag.String("fileserver", "127.0.0.1:0", "where http.FileServer listens")
	bareAddr := flag.String("bare", "127.0.0.1:0", "where the bare handler listens")
	headersAddr := flag.String("headers", "127.0.0.1:0", "where the bare handler with a link's headers listens")
	flag.Parse()
	body, err := os.ReadFile(filepath.Join(*dir, *file))
	if err != nil {
		log.Fatal(err)
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(body)
	})
	go func() { log.Fatal(http.ListenAndServe(*bareAddr, bare)) }()
	go func() { log.Fatal(http.ListenAndServe(*headersAddr, withLinkHeaders(*file, body))) }()
	log.Fatal(http.ListenAndServe(*fsAddr, http.FileServer(http.Dir(*dir))))
}

// withLinkHeaders answers body with the headers of a convfiles link to a
// text file, each value prepared once and set as convfiles sets them.
func withLinkHeaders(name string, body []byte) http.Handler {
	prepared := map[string][]string{
		"Accept-Ranges":           {"bytes"},
		"Cache-Control":           {"no-cache"},
		"Content-Disposition":     {`inline; filename="` + name + `"; filename*=UTF-8''` + name},
		"Content-Length":          {strconv.Itoa(len(body))},
		"Content-Security-Policy": {"sandbox"},
		"Content-Type":            {"text/plain; charset=utf-8"},
		"Etag":                    {`"35s-dn5zp508m5m9"`},
		"Last-Modified":           {time.Now().UTC().Format(http.TimeFormat)},
		"X-Content-Type-Options":  {"nosniff"},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range prepared {
			h[k] = v
		}
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	})
}
