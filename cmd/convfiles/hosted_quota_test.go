package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestKeyQuotaHoldsAcrossItsConversations: a key made with --max-bytes
// may fill its tenant's conversations up to that many bytes together,
// whichever door writes (a file operation, an upload, a script) and
// whether the key or a token it minted asks; past it each is refused with
// a 413 that says the quota and what the tenant holds. A key without a
// quota still writes, and keys list shows the quota.
func TestKeyQuotaHoldsAcrossItsConversations(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[io]\nenabled = true\n"), 0o600)
	base, _ := hostedServe(t, c)
	code, quoted, stderr := c.run("", "keys", "create", "--name", "small", "--scopes", "read,write,execute", "--tenant", "acme-", "--max-bytes", "1KiB")
	if code != 0 || !strings.Contains(stderr, "at most 1 KiB together") {
		t.Fatalf("keys create --max-bytes: %d %s", code, stderr)
	}
	quoted = strings.TrimSpace(quoted)
	_, free, _ := c.run("", "keys", "create", "--name", "free", "--scopes", "read,write", "--tenant", "acme-")
	free = strings.TrimSpace(free)

	write := func(cred, conv, name string, size int) (int, string) {
		return request(t, "POST", base+"/api/conversations/"+conv+"/ops/write_text", cred,
			`{"id":"`+name+`","content":"`+strings.Repeat("x", size)+`"}`)
	}
	if code, body := write(quoted, "acme-1", "a.txt", 600); code != 200 {
		t.Fatalf("a write within the quota: %d %s", code, body)
	}
	code, body := write(quoted, "acme-2", "b.txt", 600)
	if code != 413 || !strings.Contains(body, "may hold at most 1 KiB together and hold 600 B") {
		t.Fatalf("a write past the quota, in another conversation: %d %s", code, body)
	}
	_, minted := request(t, "POST", base+"/api/tokens", quoted, `{"scopes":["read","write"],"conversations":["acme-3"]}`)
	var tok struct {
		Result struct{ Token string } `json:"result"`
	}
	json.Unmarshal([]byte(minted), &tok)
	if code, body := write(tok.Result.Token, "acme-3", "c.txt", 600); code != 413 {
		t.Fatalf("the key's token past the quota: %d %s", code, body)
	}
	if code, body := uploadStatus(t, base, quoted, "acme-4", "d.bin", 600); code != 413 {
		t.Fatalf("an upload past the quota: %d %s", code, body)
	}
	code, body = request(t, "POST", base+"/execute", quoted,
		`{"conversationId": "acme-5", "code": "write_file('e.txt', 'y'.repeat(600))"}`)
	if code != 500 || !strings.Contains(body, "at most 1 KiB together") {
		t.Fatalf("a script past the quota: %d %s", code, body)
	}
	if code, body := write(quoted, "acme-1", "small.txt", 300); code != 200 {
		t.Fatalf("what still fits: %d %s", code, body)
	}
	// The quota is the key's own: another key of the tenant writes on,
	// and its bytes then count against the first key's quota too.
	if code, body := write(free, "acme-2", "b.txt", 600); code != 200 {
		t.Fatalf("a key without a quota: %d %s", code, body)
	}
	if code, _ := write(quoted, "acme-1", "one-more.txt", 1); code != 413 {
		t.Fatalf("after another key filled the tenant: %d, want 413", code)
	}
	_, list, _ := c.run("", "keys", "list", "--json")
	if !strings.Contains(list, `"max_bytes": 1024`) {
		t.Fatalf("keys list --json does not show the quota:\n%s", list)
	}
	if code, _, errs := c.run("", "keys", "create", "--name", "x", "--scopes", "read", "--max-bytes", "lots"); code == 0 || !strings.Contains(errs, "10GiB") {
		t.Fatalf("--max-bytes lots: %d %s", code, errs)
	}
}

// uploadStatus uploads size bytes as name into conv with a bearer
// credential and returns the status and the body.
func uploadStatus(t *testing.T, base, cred, conv, name string, size int) (int, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(bytes.Repeat([]byte("z"), size))
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/files/upload?conversation="+conv, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+cred)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, string(body)
}
