package routes

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"

	"convfiles/engine"
)

// zipEntries reads an archive's entries and their contents (a folder
// entry has none).
func zipEntries(t *testing.T, body []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v (%.200s)", err, body)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = string(b)
	}
	return out
}

// TestZipOfASelection downloads chosen files and folders as one archive:
// entries named from the folder they were chosen in, a folder's files at
// any depth, an empty made folder as its own entry and no .keep, images
// stored as they are and text deflated; paths outside the folder, unknown
// names and another conversation are refused before a byte is sent.
func TestZipOfASelection(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "zip-1"
	write(t, e.store, conv, "reports/q1.csv", strings.Repeat("north,12\n", 200))
	write(t, e.store, conv, "reports/notes.md", "# notes\n")
	write(t, e.store, conv, "reports/2025/deep.txt", "deep\n")
	write(t, e.store, conv, "reports/empty/.keep", "")
	write(t, e.store, conv, "reports/chart.png", "\x89PNG\r\n\x1a\nnot really")
	write(t, e.store, conv, "top.txt", "top\n")

	q := url.Values{"path": {"reports/q1.csv", "reports/2025", "reports/empty", "reports/chart.png"}, "base": {"reports"}}
	resp, body := e.get("/api/conversations/" + conv + "/zip?" + q.Encode())
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("zip: %d %s: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if cd := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="reports.zip"`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	got := zipEntries(t, body)
	want := map[string]string{"q1.csv": strings.Repeat("north,12\n", 200), "2025/deep.txt": "deep\n", "empty/": "", "chart.png": "\x89PNG\r\n\x1a\nnot really"}
	if !reflect.DeepEqual(got, want) {
		var names []string
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Errorf("entries %q, want %v", names, want)
	}
	zr, _ := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	for _, f := range zr.File {
		if want := map[string]uint16{"chart.png": zip.Store, "q1.csv": zip.Deflate}[f.Name]; want != 0 || f.Name == "chart.png" {
			if f.Method != want {
				t.Errorf("%s is compressed with method %d, want %d", f.Name, f.Method, want)
			}
		}
	}

	// Without base, entries keep their full names; one file names the zip.
	resp, body = e.get("/api/conversations/" + conv + "/zip?path=top.txt")
	if got := zipEntries(t, body); !reflect.DeepEqual(got, map[string]string{"top.txt": "top\n"}) || !strings.Contains(resp.Header.Get("Content-Disposition"), `"top.txt.zip"`) {
		t.Errorf("one file: %v, %q", got, resp.Header.Get("Content-Disposition"))
	}

	for _, c := range []struct {
		query  string
		status int
		says   string
	}{
		{"path=top.txt&base=reports", http.StatusBadRequest, "is not in the folder reports"},
		{"path=nothing-here", http.StatusNotFound, "no such file or folder"},
		{"path=../zip-2/x", http.StatusBadRequest, ".."},
		{"", http.StatusBadRequest, "paths names the files"},
	} {
		resp, body := e.get("/api/conversations/" + conv + "/zip?" + c.query)
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.says) || resp.Header.Get("Content-Type") == "application/zip" {
			t.Errorf("%s: %d %.300s, want %d saying %q", c.query, resp.StatusCode, body, c.status, c.says)
		}
	}
}

// TestWriteTextIfVersion saves an edit with the version it was read at:
// it lands while nobody wrote since, and a change made meanwhile makes
// it a conflict that names the version now, with nothing overwritten.
func TestWriteTextIfVersion(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "edit-1"
	write(t, e.store, conv, "notes.txt", "one\n")
	var info envelopeOf[fileOut]
	e.do(http.MethodPost, "/api/conversations/"+conv+"/ops/info", map[string]any{"id": "notes.txt"}, &info)
	read := info.Result.Version
	if read == 0 {
		t.Fatalf("no version: %+v", info)
	}
	write(t, e.store, conv, "notes.txt", "theirs\n") // a script writes meanwhile
	var out envelopeOf[map[string]any]
	status := e.do(http.MethodPost, "/api/conversations/"+conv+"/ops/write_text", map[string]any{"id": "notes.txt", "content": "mine\n", "if_version": read}, &out)
	if status != http.StatusConflict || out.Error.Type != "ConflictError" || !strings.Contains(out.Error.Message, "version") {
		t.Fatalf("a stale edit: %d %+v", status, out.Error)
	}
	if _, body := e.get("/files/" + conv + "/notes.txt"); string(body) != "theirs\n" {
		t.Fatalf("the stale edit overwrote the file: %q", body)
	}
	e.do(http.MethodPost, "/api/conversations/"+conv+"/ops/info", map[string]any{"id": "notes.txt"}, &info)
	status = e.do(http.MethodPost, "/api/conversations/"+conv+"/ops/write_text", map[string]any{"id": "notes.txt", "content": "mine\n", "if_version": info.Result.Version}, &out)
	if status != http.StatusOK {
		t.Fatalf("an edit of the version now: %d %+v", status, out.Error)
	}
	if _, body := e.get("/files/" + conv + "/notes.txt"); string(body) != "mine\n" {
		t.Fatalf("the edit did not land: %q", body)
	}
}

// TestZipOperation makes an archive as a file of the conversation through
// the operations route: named from a folder given as its own base, never
// holding an earlier version of itself, and a taken name is a conflict.
func TestZipOperation(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "zip-op"
	write(t, e.store, conv, "out/summary.md", "# Summary\n")
	write(t, e.store, conv, "out/data.csv", "a,b\n1,2\n")
	write(t, e.store, conv, "out/results.zip", "an older archive")
	var out envelopeOf[struct {
		Name  string
		Files int
		Size  int64
	}]
	status := e.do(http.MethodPost, "/api/conversations/"+conv+"/ops/zip", map[string]any{"paths": []string{"out"}, "base": "out", "name": "out/results.zip", "replace": true}, &out)
	if status != http.StatusOK || out.Result.Name != "out/results.zip" || out.Result.Files != 2 {
		t.Fatalf("zip: %d %+v", status, out)
	}
	_, body := e.get("/files/" + conv + "/out/results.zip")
	if got := zipEntries(t, body); !reflect.DeepEqual(got, map[string]string{"summary.md": "# Summary\n", "data.csv": "a,b\n1,2\n"}) || int64(len(body)) != out.Result.Size {
		t.Errorf("the archive holds %v (%d bytes, answered %d)", got, len(body), out.Result.Size)
	}
	status = e.do(http.MethodPost, "/api/conversations/"+conv+"/ops/zip", map[string]any{"paths": []string{"out/data.csv"}, "name": "out/summary.md"}, &out)
	if status != http.StatusConflict {
		t.Errorf("a taken name: %d", status)
	}
}
