package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
)

// serverRecordName is the file in the data folder where a running
// convfiles serve says where its links point, so that convfiles run and
// convfiles mcp on the same data make links to it.
const serverRecordName = "server.json"

// serverRecord is what server.json holds.
type serverRecord struct {
	URL     string    `json:"url"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
}

// writeServerRecord says, in dataDir, that this process serves links at
// url; the function it returns removes the record unless another server
// replaced it since. The file is written whole, then renamed into place.
func writeServerRecord(dataDir, url string) (func(), error) {
	rec := serverRecord{URL: url, PID: os.Getpid(), Started: time.Now().UTC()}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, serverRecordName)
	tmp := filepath.Join(dataDir, ".convfiles-server-"+uuid.NewString())
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, err
	}
	return func() {
		if cur, err := readServerRecord(dataDir); err == nil && cur.PID == rec.PID && cur.Started.Equal(rec.Started) {
			os.Remove(path)
		}
	}, nil
}

func readServerRecord(dataDir string) (serverRecord, error) {
	var rec serverRecord
	data, err := os.ReadFile(filepath.Join(dataDir, serverRecordName))
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(data, &rec); err != nil || rec.URL == "" || rec.PID <= 0 {
		return rec, fmt.Errorf("%s is not a server record", serverRecordName)
	}
	return rec, nil
}

// findServer returns the link base of a convfiles serve running on
// dataDir: its record names a live process, and the URL answers
// /healthz within a second.
func findServer(dataDir string) (string, bool) {
	rec, err := readServerRecord(dataDir)
	if err != nil {
		return "", false
	}
	if err := syscall.Kill(rec.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return "", false // a record a crashed server left
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(rec.URL, "/")+"/healthz", nil)
	if err != nil {
		return "", false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", false
	}
	resp.Body.Close()
	return rec.URL, resp.StatusCode == http.StatusOK
}

// resolveLinks sets the base of the links convfiles run and convfiles mcp
// make: the --public-url flag, else [server] public_url, else the URL of
// a convfiles serve running on the same data. With none of them, links
// point where serve would listen by default, and the user is told.
func resolveLinks(e *env, cfg *Config, flag string) {
	switch {
	case flag != "":
		cfg.Server.PublicURL = flag
	case cfg.Server.PublicURL != "":
	default:
		if url, ok := findServer(cfg.DataDir); ok {
			cfg.Server.PublicURL = url
			return
		}
		fmt.Fprintf(e.stderr, "convfiles: no convfiles serve is running on %s, so links point to %s, where it listens by default; "+
			"start it, or pass --public-url\n", cfg.DataDir, cfg.publicURL())
	}
}
