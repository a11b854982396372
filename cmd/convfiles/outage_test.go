package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/internal/pgserver"
	"convfiles/internal/s3server"
)

// outageAnswer is one answer of a server whose stores are down.
type outageAnswer struct {
	status     int
	retryAfter string
	errType    string
	message    string
}

// ask sends a REST operation and reads the answer's status, Retry-After
// and error.
func ask(t *testing.T, base, conv, op string, args map[string]any) outageAnswer {
	t.Helper()
	resp, err := http.Post(base+"/api/conversations/"+conv+"/ops/"+op, "application/json", strings.NewReader(jsonOf(args)))
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	defer resp.Body.Close()
	var env struct {
		Error struct{ Type, Message string }
	}
	json.NewDecoder(resp.Body).Decode(&env)
	return outageAnswer{resp.StatusCode, resp.Header.Get("Retry-After"), env.Error.Type, env.Error.Message}
}

// wantUnavailable checks that a is "unavailable, retry": a 503 with
// Retry-After and an UnavailableError that names no internal key.
func wantUnavailable(t *testing.T, what string, a outageAnswer) {
	t.Helper()
	if a.status != http.StatusServiceUnavailable || a.retryAfter == "" || a.errType != "UnavailableError" ||
		strings.Contains(a.message, files.ReservedPrefix) {
		t.Errorf("%s: %d Retry-After %q %s %q, want 503 with Retry-After, an UnavailableError and no internal name",
			what, a.status, a.retryAfter, a.errType, a.message)
	}
}

// TestOutagesAreUnavailableNotConflicts runs a server on a PostgreSQL
// and an S3 server of its own, and stops each: while the object store is
// down a write, and a read of bytes not kept in memory, is "unavailable,
// retry", not a conflict naming an object; while the database is down,
// reads and writes are too, not internal errors.
func TestOutagesAreUnavailableNotConflicts(t *testing.T) {
	pgserver.Require(t)
	s3server.Require(t)
	s3, err := s3server.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Stop()
	if err := s3.CreateBucket("outage"); err != nil {
		t.Fatal(err)
	}
	pg, err := pgserver.Start(pgserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	toml := fmt.Sprintf(`[storage]
index = %q
blobs = "s3://outage/convfiles"
gc_interval = "0s"

[storage.s3]
endpoint = %q
access_key = %q
secret_key = %q
`, pg.URL("postgres"), s3.Endpoint(), s3server.AccessKey, s3server.SecretKey)
	srv := startServerProcessWith(t, t.TempDir(), toml)
	defer func() { srv.cmd.Process.Kill(); srv.cmd.Wait() }()

	if a := ask(t, srv.base, "c", "write_text", map[string]any{"id": "kept.txt", "content": "before\n"}); a.status != 200 {
		t.Fatalf("a write with both stores up: %+v", a)
	}
	// Larger than the small objects the server keeps in memory as it
	// stores them: reading it needs the object store.
	big := strings.Repeat("a line of a large file\n", 20_000)
	if a := ask(t, srv.base, "c", "write_text", map[string]any{"id": "big.txt", "content": big}); a.status != 200 {
		t.Fatalf("a large write with both stores up: %+v", a)
	}
	s3.Stop()
	down := ask(t, srv.base, "c", "write_text", map[string]any{"id": "new.txt", "content": "during\n"})
	wantUnavailable(t, "a new file's write with the object store down", down)
	// The README shows this answer.
	shown := false
	for _, b := range readmeBlocks(t) {
		if b.lang == "json" && strings.Contains(b.body, "UnavailableError") {
			shown = true
			assertSameJSON(t, "the README's answer of an outage", jsonOf(map[string]any{"success": false,
				"error": map[string]any{"type": down.errType, "message": down.message}}), b.body)
		}
	}
	if !shown {
		t.Error("the README shows no answer of an outage")
	}
	wantUnavailable(t, "a read with the object store down", ask(t, srv.base, "c", "read_text", map[string]any{"id": "big.txt"}))
	// A small file this server stored is still read: its bytes are in
	// memory, and the database says they are still the file's.
	if a := ask(t, srv.base, "c", "read_text", map[string]any{"id": "kept.txt"}); a.status != 200 {
		t.Errorf("a small file just stored, read with the object store down: %+v", a)
	}

	pg.Stop()
	wantUnavailable(t, "a listing with the database down", ask(t, srv.base, "c", "list", map[string]any{}))
	wantUnavailable(t, "a write with the database down",
		ask(t, srv.base, "c", "write_text", map[string]any{"id": "kept.txt", "content": "during\n"}))
	wantUnavailable(t, "a rename with the database down",
		ask(t, srv.base, "c", "rename", map[string]any{"id": "kept.txt", "new_name": "moved.txt"}))
}
