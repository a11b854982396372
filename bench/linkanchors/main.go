// Command linkanchors serves the anchors bench/links.sh measures convfiles'
// links against: Go's http.FileServer over a folder, and a bare handler
// that answers the same bytes from memory (the floor of net/http).
//
//	go run ./bench/linkanchors -dir DIR -file NAME -fileserver 127.0.0.1:P1 -bare 127.0.0.1:P2
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", "", "the folder http.FileServer serves")
	file := flag.String("file", "", "the file in it the bare handler answers from memory")
	fsAddr := flag.String("fileserver", "127.0.0.1:0", "where http.FileServer listens")
	bareAddr := flag.String("bare", "127.0.0.1:0", "where the bare handler listens")
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
	log.Fatal(http.ListenAndServe(*fsAddr, http.FileServer(http.Dir(*dir))))
}
