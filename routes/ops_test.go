package routes

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"convfiles/engine"
)

// TestOpRouteRefusesWhatItCannotRun: the operations route answers an
// unknown operation, a body that is not declared JSON (which any web page
// could post), malformed JSON, an unknown field and a hostile conversation
// ID with an error that says what was wrong, and runs a good call.
func TestOpRouteRefusesWhatItCannotRun(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	var out envelopeOf[map[string]any]
	if st := e.do("POST", "/api/conversations/c1/ops/write_text", rawJSON(`{"id": "a.txt", "content": "a\n"}`), &out); st != 200 || out.Result["size"] != float64(2) {
		t.Fatalf("a good call: %d %+v", st, out)
	}
	for _, c := range []struct {
		path, body string
		status     int
		says       string
	}{
		{"/api/conversations/c1/ops/no_such_op", `{}`, 404, "no such operation"},
		{"/api/conversations/c1/ops/read_text", `{"id": "a.txt"`, 400, "unexpected EOF"},
		{"/api/conversations/c1/ops/read_text", `{"id": "a.txt", "bogus": 1}`, 400, `no parameter "bogus": the parameters are id, start_line`},
		{"/api/conversations/c1/ops/read_text", `{"id": "a.txt", "start_line": "abc"}`, 400, `start_line must be a whole number, not a string`},
		{"/api/conversations/c1/ops/read_text", `["a.txt"]`, 400, `the arguments of read_text must be an object, not an array`},
		{"/api/conversations/..%2fc1/ops/read_text", `{"id": "a.txt"}`, 400, "conversation"},
		{"/api/conversations/c1/ops/read_text", `{"id": "../a.txt"}`, 400, `".." components are not allowed`},
	} {
		var bad envelopeOf[any]
		if st := e.do("POST", c.path, rawJSON(c.body), &bad); st != c.status || !strings.Contains(bad.Error.Message, c.says) {
			t.Errorf("POST %s %s: %d %+v, want %d saying %q", c.path, c.body, st, bad.Error, c.status, c.says)
		}
	}
	resp, err := http.Post(e.srv.URL+"/api/conversations/c1/ops/write_text", "text/plain", strings.NewReader(`{"id": "b.txt", "content": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a text/plain body: %d, want 415", resp.StatusCode)
	}
	sp, err := e.store.Space("c1")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if _, err := sp.Stat(context.Background(), "b.txt"); err == nil {
		t.Error("a text/plain body wrote a file")
	}
}
