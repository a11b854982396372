package routes

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/hostile"
)

// TestHostileNamesThroughTheAPI sends every hostile name as an upload's
// file name and as the new name of a rename and a copy, and every hostile
// conversation ID and file ID through the API's paths: names to refuse get
// a 4xx envelope, legal odd names land exactly inside the conversation, and
// nothing outside it is read or changed.
func TestHostileNamesThroughTheAPI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	fx := hostile.NewFixture(t, dir)
	e := newAPIEnvAt(t, dir, engine.Options{})
	seed := write(t, e.store, hostile.Conversation, "seed.txt", "seed")

	for _, c := range hostile.Names() {
		status, env := e.upload(hostile.Conversation, "", part{name: escapeQuotes(c.Name), body: []byte("uploaded")})
		checkOutcome(t, fx, "upload", c, status, env.Error.Message)
		var out envelopeOf[any]
		// The upload took the name: the copy replaces it, as it asks.
		st := e.do("POST", "/api/files/"+seed.ID+"/copy", rawJSON(`{"name": "`+jsonEscape(c.Name)+`", "replace": true}`), &out)
		checkOutcome(t, fx, "copy", c, st, out.Error.Message)
	}
	for _, c := range hostile.Names() {
		if c.Outcome != hostile.Refuse {
			continue
		}
		var out envelopeOf[any]
		if st := e.do("POST", "/api/files/"+seed.ID+"/rename", rawJSON(`{"name": "`+jsonEscape(c.Name)+`"}`), &out); st < 400 || st >= 500 {
			t.Errorf("rename to %q: %d", c.Name, st)
		}
	}
	for _, id := range hostile.ConversationIDs() {
		paths := []string{"/api/conversations/" + url.PathEscape(id) + "/files"}
		if id != "" { // no conversation means every conversation's events
			paths = append(paths, "/api/events?conversation="+url.QueryEscape(id))
		}
		for _, p := range paths {
			if status, body := rawGet(t, e.srv, p); status < 400 || status >= 500 || strings.Contains(body, hostile.Secret) {
				t.Errorf("GET %s: %d %s", p, status, body)
			}
		}
		req, _ := http.NewRequest("DELETE", e.srv.URL+"/api/conversations/"+url.PathEscape(id), nil)
		if resp, err := http.DefaultClient.Do(req); err == nil && resp.StatusCode < 400 {
			t.Errorf("DELETE conversation %q: %d", id, resp.StatusCode)
		}
	}
	for _, id := range []string{"..", "%2e%2e", "..%2f..%2fc1-sibling", seed.ID + "%2f..", "00000000-0000-4000-8000-000000000000"} {
		for _, route := range []string{"download", "preview", "thumbnail"} {
			if status, body := rawGet(t, e.srv, "/api/files/"+id+"/"+route); status < 400 || strings.Contains(body, hostile.Secret) {
				t.Errorf("%s of id %q: %d %s", route, id, status, body)
			}
		}
	}
	fx.CheckUntouched(t)
}

func checkOutcome(t *testing.T, fx *hostile.Fixture, door string, c hostile.Case, status int, msg string) {
	t.Helper()
	switch c.Outcome {
	case hostile.Refuse:
		if status < 400 || status >= 500 || msg == "" {
			t.Errorf("%s %q: status %d (%q), want a 4xx with a message", door, c.Name, status, msg)
		}
	default:
		if status >= 300 {
			t.Errorf("%s %q: status %d (%s), want it stored inside the conversation", door, c.Name, status, msg)
			return
		}
		fx.CheckContained(t, c.Name)
	}
}

// escapeQuotes escapes a name for a quoted multipart parameter, as
// mime/multipart does.
func escapeQuotes(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// jsonEscape escapes a string for a JSON literal byte for byte: invalid
// UTF-8 stays invalid, as a hostile client would send it.
func jsonEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, "\\u%04x", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
