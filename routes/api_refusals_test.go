package routes

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"convfiles/engine"
)

// TestAPIRefusesBadRequests: every malformed parameter and body gets a 4xx
// envelope whose message says what was wrong.
func TestAPIRefusesBadRequests(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	id := write(t, e.store, "c1", "a.txt", "a").ID
	cases := []struct {
		method, path, body string
		want               int
		says               string
	}{
		{"GET", "/api/conversations/c1/files?sort=colour", "", 400, "sort by name, size, modified"},
		{"GET", "/api/conversations/c1/files?order=sideways", "", 400, "asc or desc"},
		{"GET", "/api/conversations/c1/files?offset=-1", "", 400, "offset"},
		{"GET", "/api/conversations/c1/files?limit=1001", "", 400, "limit"},
		{"GET", "/api/conversations/c1/files?pattern=%5Ba-", "", 400, "malformed"},
		{"GET", "/api/files/" + id + "/versions/0/download", "", 400, "positive number"},
		{"POST", "/api/files/" + id + "/versions/two/restore", "", 400, "positive number"},
		{"POST", "/api/files/" + id + "/versions/7/restore", "", 404, "no such version"},
		{"POST", "/api/files/" + id + "/rename", `{"nom": "b.txt"}`, 400, `{"name"`},
		{"POST", "/api/files/" + id + "/copy", `not json`, 400, `{"name"`},
		{"GET", "/api/files/not-an-id", "", 404, "no file has this ID"},
		{"DELETE", "/api/conversations/nobody", "", 404, "no such conversation"},
		{"GET", "/api/events?conversation=c1&last_event_id=soon", "", 400, "Last-Event-ID"},
	}
	for _, c := range cases {
		var out envelopeOf[any]
		if st := e.do(c.method, c.path, rawJSON(c.body), &out); st != c.want || !strings.Contains(out.Error.Message, c.says) {
			t.Errorf("%s %s: %d %q, want %d saying %q", c.method, c.path, st, out.Error.Message, c.want, c.says)
		}
	}
}

// TestUploadRefusesMalformedBodies: a body that is not multipart, a
// conversation field after the files, and a body cut off mid-file are
// refused with 400, more than 1,000 parts with 413, and none leaves a file
// behind.
func TestUploadRefusesMalformedBodies(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	post := func(ctype string, body []byte) (int, string) {
		resp, err := http.Post(e.srv.URL+"/api/files/upload?conversation=c1", ctype, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var out envelopeOf[any]
		decode(t, resp, &out)
		return resp.StatusCode, out.Error.Message
	}
	if st, msg := post("application/json", []byte(`{"file": "x"}`)); st != 400 || !strings.Contains(msg, "multipart/form-data") {
		t.Errorf("JSON body: %d %q", st, msg)
	}
	body, ctype := uploadBody(t, nil, part{name: "a.txt", body: []byte("x")})
	late := strings.Replace(body.String(), "--"+strings.TrimPrefix(ctype, "multipart/form-data; boundary=")+"--",
		"--"+strings.TrimPrefix(ctype, "multipart/form-data; boundary=")+"\r\nContent-Disposition: form-data; name=\"conversation\"\r\n\r\nc2\r\n--"+strings.TrimPrefix(ctype, "multipart/form-data; boundary=")+"--", 1)
	if st, msg := post(ctype, []byte(late)); st != 400 || !strings.Contains(msg, "before the files") {
		t.Errorf("conversation field after the files: %d %q", st, msg)
	}
	body, ctype = uploadBody(t, nil, part{name: "cut.txt", body: bytes.Repeat([]byte("y"), 1<<20)})
	if st, msg := post(ctype, body.Bytes()[:body.Len()/2]); st != 400 || !strings.Contains(msg, "cut off") {
		t.Errorf("cut-off body: %d %q", st, msg)
	}
	many := make([]part, 1001)
	for i := range many {
		many[i] = part{name: fmt.Sprintf("f%d.txt", i), body: []byte("x")}
	}
	body, ctype = uploadBody(t, nil, many...)
	if st, msg := post(ctype, body.Bytes()); st != 413 || !strings.Contains(msg, "at most 1000 parts") {
		t.Errorf("1001 files in one upload: %d %q", st, msg)
	}
	if names := listDir(e.dir + "/c1"); len(names) != 0 {
		t.Errorf("refused uploads left %v", names)
	}
}

// TestEventsResetWhenTooFarBehind: a client resuming from before the
// oldest kept event is told to reload with a reset event first.
func TestEventsResetWhenTooFarBehind(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		write(t, e.store, "c1", n, n)
	}
	db, err := sql.Open("sqlite", "file:"+e.indexPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM events WHERE seq <= 2`); err != nil { // as the history's pruning does
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := openStream(t, ctx, e.srv.URL+"/api/events?conversation=c1", "1")
	if ev := next(t, stream); ev.event != "reset" || ev.id != "2" {
		t.Fatalf("first event %+v, want a reset", ev)
	}
	if ev := next(t, stream); ev.event != "file:created" || ev.data["name"] != "c.txt" {
		t.Fatalf("after the reset: %+v", ev)
	}
}
