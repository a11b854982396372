package routes

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/samples"
)

// TestUploadListDownloadLifecycle walks a file through the REST API:
// upload (MIME from magic, non-ASCII names kept), list with glob, sort and
// paging, info, download with Range, view, rename, copy, versions, restore
// and delete.
func TestUploadListDownloadLifecycle(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	png := samples.Read(t, "sample.png")
	status, up := e.upload("c1", "",
		part{name: "pretends-text.txt", ctype: "text/plain", body: png},
		part{name: "Résumé 2026.md", body: []byte("# one\n")},
		part{name: "data/b.csv", body: []byte("a,b\n1,2\n3,4\n")})
	if status != http.StatusCreated || len(up.Result.Files) != 3 {
		t.Fatalf("upload: %d %+v", status, up)
	}
	img, md := up.Result.Files[0], up.Result.Files[1]
	if img.MIME != "image/png" || img.Source != "upload" || img.Size != int64(len(png)) || len(img.ID) != 36 {
		t.Fatalf("sniffed file: %+v", img)
	}
	if md.Name != "Résumé 2026.md" || md.URL != e.srv.URL+"/files/c1/R%C3%A9sum%C3%A9%202026.md" {
		t.Fatalf("non-ASCII name: %+v", md)
	}

	var list envelopeOf[struct {
		Files []fileOut
		Total int
	}]
	e.do("GET", "/api/conversations/c1/files?sort=size&order=desc&limit=2", nil, &list)
	if list.Result.Total != 3 || len(list.Result.Files) != 2 || list.Result.Files[0].ID != img.ID {
		t.Fatalf("sorted page: %+v", list.Result)
	}
	e.do("GET", "/api/conversations/c1/files?pattern="+url.QueryEscape("*.csv"), nil, &list)
	if list.Result.Total != 1 || list.Result.Files[0].Name != "data/b.csv" {
		t.Fatalf("glob: %+v", list.Result)
	}
	var bad envelopeOf[any]
	if st := e.do("GET", "/api/conversations/c1/files?limit=0", nil, &bad); st != 400 || !strings.Contains(bad.Error.Message, "limit") {
		t.Fatalf("limit=0: %d %+v", st, bad.Error)
	}

	resp, body := e.get("/api/files/" + img.ID + "/download")
	if !bytes.Equal(body, png) || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("download: %d bytes, %v", len(body), resp.Header)
	}
	req, _ := http.NewRequest("GET", img.DownloadURL, nil)
	req.Header.Set("Range", "bytes=1-3")
	rr, _ := http.DefaultClient.Do(req)
	rb := make([]byte, 8)
	n, _ := rr.Body.Read(rb)
	rr.Body.Close()
	if rr.StatusCode != http.StatusPartialContent || string(rb[:n]) != "PNG" {
		t.Fatalf("range: %d %q", rr.StatusCode, rb[:n])
	}
	if resp, _ := e.get("/api/files/" + img.ID + "/view"); !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "inline") || resp.Header.Get("Content-Security-Policy") != "sandbox" {
		t.Fatalf("view: %v", resp.Header)
	}

	var one envelopeOf[struct{ File fileOut }]
	if st := e.do("POST", "/api/files/"+md.ID+"/rename", map[string]string{"name": "notes/résumé.md"}, &one); st != 200 || one.Result.File.ID != md.ID || one.Result.File.Name != "notes/résumé.md" {
		t.Fatalf("rename: %d %+v", st, one)
	}
	if st := e.do("POST", "/api/files/"+md.ID+"/copy", map[string]string{"name": "copy.md"}, &one); st != 200 || one.Result.File.ID == md.ID || one.Result.File.Source != "derived" {
		t.Fatalf("copy: %d %+v", st, one)
	}
	if st := e.do("POST", "/api/files/"+md.ID+"/rename", map[string]string{"name": "../out.md"}, &bad); st != 400 {
		t.Fatalf("hostile rename: %d", st)
	}

	e.upload("c1", "", part{name: "notes/résumé.md", body: []byte("# two\n")})
	var versions envelopeOf[struct {
		Versions []struct {
			Version     int
			Size        int64
			DownloadURL string `json:"download_url"`
		}
	}]
	e.do("GET", "/api/files/"+md.ID+"/versions", nil, &versions)
	if len(versions.Result.Versions) != 1 || versions.Result.Versions[0].Version != 1 {
		t.Fatalf("versions: %+v", versions)
	}
	if _, b := e.get("/api/files/" + md.ID + "/versions/1/download"); string(b) != "# one\n" {
		t.Fatalf("version bytes %q", b)
	}
	if st := e.do("POST", "/api/files/"+md.ID+"/versions/1/restore", nil, &one); st != 200 || one.Result.File.Version != 3 {
		t.Fatalf("restore: %d %+v", st, one)
	}
	if _, b := e.get("/api/files/" + md.ID + "/download"); string(b) != "# one\n" {
		t.Fatalf("restored bytes %q", b)
	}

	if st := e.do("DELETE", "/api/files/"+img.ID, nil, nil); st != 200 {
		t.Fatalf("delete: %d", st)
	}
	if st := e.do("GET", "/api/files/"+img.ID+"/download", nil, &bad); st != 404 || !strings.Contains(bad.Error.Message, "versions") {
		t.Fatalf("download after delete: %d %+v", st, bad.Error)
	}
	var convs envelopeOf[struct{ Conversations []files.ConversationInfo }]
	e.do("GET", "/api/conversations", nil, &convs)
	if len(convs.Result.Conversations) != 1 || convs.Result.Conversations[0].Files != 3 {
		t.Fatalf("conversations: %+v", convs)
	}
	if st := e.do("DELETE", "/api/conversations/c1", nil, nil); st != 200 {
		t.Fatalf("delete conversation: %d", st)
	}
	if st := e.do("GET", "/api/files/"+md.ID, nil, nil); st != 404 {
		t.Fatalf("file of a deleted conversation: %d", st)
	}
	for _, en := range listDir(e.dir) {
		if !strings.HasPrefix(en, ".convfiles-") || !strings.HasSuffix(en, ".lock") {
			t.Fatalf("left behind: %v", en)
		}
	}
}

// TestUploadLimitsLeaveNothingBehind: a file over the per-file limit, a
// batch whose second file breaks the limit, and a conversation over its
// quota are refused with 413 while streaming, and leave neither a file nor
// a temporary file; the other mistakes get 400 or 409 with a message.
func TestUploadLimitsLeaveNothingBehind(t *testing.T) {
	const limit = 1 << 20
	e := newAPIEnv(t, engine.Options{Limits: files.Limits{MaxFileBytes: limit, MaxConversationBytes: 3 * limit}})
	big := bytes.Repeat([]byte("x"), limit+1)
	for i, parts := range [][]part{
		{{name: "big.bin", body: big}},
		{{name: "ok.bin", body: big[:10]}, {name: "big.bin", body: big}},
	} {
		if st, env := e.upload("c1", "", parts...); st != http.StatusRequestEntityTooLarge || !strings.Contains(env.Error.Message, "at most 1 MiB") {
			t.Fatalf("case %d: %d %+v", i, st, env.Error)
		}
	}
	for i := 0; i < 3; i++ {
		if st, _ := e.upload("c1", "", part{name: fmt.Sprintf("f%d.bin", i), body: big[:limit]}); st != 201 {
			t.Fatalf("filling the quota: %d", st)
		}
	}
	if st, env := e.upload("c1", "", part{name: "one-more.bin", body: []byte("x")}); st != 413 || !strings.Contains(env.Error.Message, "conversation") {
		t.Fatalf("over quota: %d %+v", st, env.Error)
	}
	if names := listDir(e.dir + "/c1"); strings.Join(names, ",") != "f0.bin,f1.bin,f2.bin" {
		t.Fatalf("left in the conversation: %v", names)
	}

	cases := []struct {
		query string
		parts []part
		want  int
	}{
		{"", []part{{name: "../escape.txt", body: []byte("x")}}, 400},
		{"", []part{{name: "a.txt", body: []byte("1")}, {name: "a.txt", body: []byte("2")}}, 400},
		{"", nil, 400},
		{"&on_conflict=fail", []part{{name: "taken.txt", body: []byte("x")}}, 409},
		{"&on_conflict=maybe", []part{{name: "z.bin", body: []byte("x")}}, 400},
	}
	write(t, e.store, "c2", "taken.txt", "x")
	for _, c := range cases {
		if st, env := e.upload("c2", c.query, c.parts...); st != c.want || env.Error.Message == "" {
			t.Errorf("%s %v: %d %+v", c.query, c.parts, st, env.Error)
		}
	}
	body, ctype := uploadBody(t, nil, part{name: "a.txt", body: []byte("x")})
	resp, _ := http.Post(e.srv.URL+"/api/files/upload", ctype, body)
	if resp.StatusCode != 400 {
		t.Errorf("no conversation: %d", resp.StatusCode)
	}
	body, ctype = uploadBody(t, [][2]string{{"conversation", "c3"}, {"session", "s-9"}}, part{name: "a.txt", body: []byte("x")})
	resp, _ = http.Post(e.srv.URL+"/api/files/upload", ctype, body)
	var env envelopeOf[struct {
		Files []struct {
			Conversation string
			Session      string `json:"source_session_id"`
		}
	}]
	decode(t, resp, &env)
	if resp.StatusCode != 201 || env.Result.Files[0].Session != "s-9" || env.Result.Files[0].Conversation != "c3" {
		t.Errorf("fields before files: %d %+v", resp.StatusCode, env)
	}
	if _, err := os.Stat(e.dir + "/c2"); err == nil {
		if entries, _ := os.ReadDir(e.dir + "/c2"); len(entries) != 1 || entries[0].Name() != "taken.txt" {
			t.Errorf("refused uploads left %v", entries)
		}
	}
}

// listDir returns the names in a folder.
func listDir(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	return names
}
