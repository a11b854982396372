package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"convfiles/internal/s3server"
)

// noFollow is a client that shows a redirect instead of following it.
var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// TestLargeLinksRedirectToTheStore: with [storage.s3] redirect_over, a
// GET of a large file's link is a 307 to a URL the object store signed
// for the public endpoint, which serves the exact bytes with the type and
// disposition convfiles would send (a page stays an attachment); HEAD,
// Range and conditional requests, small files and deleted files are
// answered by convfiles itself.
func TestLargeLinksRedirectToTheStore(t *testing.T) {
	// The README's keys, with the test's store as the private endpoint
	// and the same store by another name as the public one.
	section := readmeSection(t, "### Large files straight from the bucket", "### Moving a store in and out")
	block := regexp.MustCompile("(?s)```toml\n\\[storage.s3\\]\n(.*?)```").FindStringSubmatch(section)
	if block == nil {
		t.Fatal("no [storage.s3] example in the section")
	}
	public := strings.Replace(s3server.Shared(t).Endpoint(), "127.0.0.1", "localhost", 1)
	readme := strings.NewReplacer(`endpoint = "http://minio.internal:9000"`, "",
		`"https://s3.example.com"`, fmt.Sprintf("%q", public)).Replace(block[1])
	storage, _, _ := distributedConfig(t, readme)
	srv := startServerProcessWith(t, t.TempDir(), "[limits]\nmax_file_bytes = 33554432\n"+storage)
	defer func() { srv.cmd.Process.Signal(syscall.SIGTERM); srv.cmd.Wait() }()

	const size = 16 << 20 // redirect_over in the README
	big := make([]byte, size)
	rand.Read(big)
	page := bytes.Repeat([]byte("<script>alert(1)</script>\n"), size/26+1)
	bigLink := uploadBytes(t, srv.base, "redirects", "big.bin", big)
	pageLink := uploadBytes(t, srv.base, "redirects", "page.html", page)
	smallLink := uploadBytes(t, srv.base, "redirects", "small.txt", []byte("small\n"))

	for _, tc := range []struct {
		link, ctype, disposition string
		body                     []byte
	}{
		{bigLink, "application/octet-stream", "attachment", big},
		{pageLink, "text/html; charset=utf-8", "attachment", page},
		{bigLink + "?download=1", "application/octet-stream", "attachment", big},
	} {
		resp := do(t, noFollow, "GET", tc.link, nil)
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusTemporaryRedirect || !strings.HasPrefix(loc, public+"/") ||
			resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("GET %s: %d Location %q %v; want a 307 to %s that no cache keeps", tc.link, resp.StatusCode, loc, resp.Header, public)
		}
		direct := do(t, http.DefaultClient, "GET", loc, nil)
		got, _ := io.ReadAll(direct.Body)
		if direct.StatusCode != 200 || !bytes.Equal(got, tc.body) {
			t.Fatalf("the store's answer for %s: %d, %d bytes; want the %d bytes uploaded", tc.link, direct.StatusCode, len(got), len(tc.body))
		}
		if ct, cd := direct.Header.Get("Content-Type"), direct.Header.Get("Content-Disposition"); ct != tc.ctype || !strings.HasPrefix(cd, tc.disposition+";") {
			t.Errorf("the store's answer for %s: Content-Type %q, Content-Disposition %q; want %q, %s", tc.link, ct, cd, tc.ctype, tc.disposition)
		}
	}
	id := fileID(t, srv.base, "redirects", "big.bin")
	if resp := do(t, noFollow, "GET", srv.base+"/api/files/"+id+"/download", nil); resp.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("download by ID: %d, want a 307", resp.StatusCode)
	}

	// Served here: HEAD, a range, a conditional GET, a small file.
	for _, tc := range []struct {
		name, method, link string
		header             http.Header
		want               int
	}{
		{"HEAD", "HEAD", bigLink, nil, 200},
		{"a range", "GET", bigLink, http.Header{"Range": {"bytes=100-199"}}, 206},
		{"a conditional GET", "GET", bigLink, http.Header{"If-None-Match": {`"not-it"`}}, 200},
		{"a small file", "GET", smallLink, nil, 200},
	} {
		resp := do(t, noFollow, tc.method, tc.link, tc.header)
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tc.want || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d %v; want %d from convfiles itself", tc.name, resp.StatusCode, resp.Header, tc.want)
		}
		if tc.name == "a range" && !bytes.Equal(got, big[100:200]) {
			t.Errorf("a range: got %d other bytes", len(got))
		}
	}

	if resp := do(t, http.DefaultClient, "DELETE", srv.base+"/api/files/"+id, nil); resp.StatusCode != 200 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if resp := do(t, noFollow, "GET", bigLink, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a deleted file's link: %d, want 404 and no redirect", resp.StatusCode)
	}
}

// do sends one request and fails t if it cannot be sent; the body is
// closed when the test ends.
func do(t *testing.T, c *http.Client, method, url string, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// fileID is the ID of a conversation's file, from the REST listing.
func fileID(t *testing.T, base, conv, name string) string {
	t.Helper()
	resp := do(t, http.DefaultClient, "GET", base+"/api/conversations/"+conv+"/files", nil)
	var list struct {
		Result struct {
			Files []struct{ ID, Name string }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	for _, f := range list.Result.Files {
		if f.Name == name {
			return f.ID
		}
	}
	t.Fatalf("no %s in %s", name, conv)
	return ""
}

// TestHostedRedirectsOnlySignedLinks: in hosted mode a large file's link
// is checked before any redirect: unsigned or altered, it is a 403 with
// no Location; signed, a 307 to the store.
func TestHostedRedirectsOnlySignedLinks(t *testing.T) {
	c := newCLI(t)
	_, signingKey, _ := c.run("", "keys", "signing-key", "--id", "k1")
	storage, _, _ := distributedConfig(t, "redirect_over = 1048576\n")
	toml := fmt.Sprintf("mode = \"hosted\"\n[auth]\nsigning_keys = [%q]\n[limits]\nmax_file_bytes = 8388608\n%s", strings.TrimSpace(signingKey), storage)
	if err := os.WriteFile(c.config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, key, stderr := c.run("", "keys", "create", "--name", "t", "--scopes", "read,write", "--tenant", "acme-")
	if code != 0 {
		t.Fatalf("keys create: %s", stderr)
	}
	key = strings.TrimSpace(key)
	srv := startServerProcessWith(t, t.TempDir(), toml)
	defer func() { srv.cmd.Process.Signal(syscall.SIGTERM); srv.cmd.Wait() }()

	big := make([]byte, 2<<20)
	rand.Read(big)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "big.bin")
	fw.Write(big)
	mw.Close()
	up, _ := http.NewRequest("POST", srv.base+"/api/files/upload?conversation=acme-1", &form)
	up.Header.Set("Content-Type", mw.FormDataContentType())
	up.Header.Set("Authorization", "Bearer "+key)
	uploaded, err := http.DefaultClient.Do(up)
	if err != nil {
		t.Fatal(err)
	}
	uploaded.Body.Close()
	if uploaded.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d", uploaded.StatusCode)
	}
	_, list := request(t, "GET", srv.base+"/api/conversations/acme-1/files", key, "")
	signed := regexp.MustCompile(`"(http://[^"]*/files/acme-1/big\.bin\?[^"]*)"`).FindStringSubmatch(list)
	if signed == nil {
		t.Fatalf("no signed link in %s", list)
	}
	link := strings.ReplaceAll(signed[1], `\u0026`, "&")
	unsigned, _, _ := strings.Cut(link, "?")
	for _, tc := range []struct{ name, url string }{
		{"unsigned", unsigned},
		{"altered", strings.Replace(link, "big.bin", "big.bim", 1)},
	} {
		resp := do(t, noFollow, "GET", tc.url, nil)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Location") != "" {
			t.Errorf("%s link: %d, Location %q; want 403 and no redirect", tc.name, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	resp := do(t, noFollow, "GET", link, nil)
	if resp.StatusCode != http.StatusTemporaryRedirect {
		t.Fatalf("signed link: %d, want 307", resp.StatusCode)
	}
	direct := do(t, http.DefaultClient, "GET", resp.Header.Get("Location"), nil)
	if got, _ := io.ReadAll(direct.Body); !bytes.Equal(got, big) {
		t.Errorf("the store's answer: %d, %d bytes", direct.StatusCode, len(got))
	}
}
