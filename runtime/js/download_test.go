package js

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"convfiles/internal/fetch"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

func TestFilesDownload(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/huge" {
			w.Write(make([]byte, 4096))
			return
		}
		io.WriteString(w, "id,total\n1,10\n")
	}))
	defer srv.Close()
	allowed, _ := fetch.New(fetch.Policy{Allow: []string{"127.0.0.1"}, MaxBytes: 1024})
	strict, _ := fetch.New(fetch.Policy{})

	e := runtimetest.NewEnv(t, runtime.Config{Downloader: allowed})
	var got map[string]any
	rep := e.OK("dl", `files.download("`+srv.URL+`/exports/sales.csv")`, &got)
	if got["name"] != "sales.csv" || got["size"] != float64(14) || got["mime_type"] != "text/csv" || len(rep.FilesTouched) != 1 {
		t.Fatalf("download %v %+v", got, rep.FilesTouched)
	}
	var escape string
	e.OK("dl", `try { files.download("`+srv.URL+`/x", "../escape.csv"); "fetched" } catch (e) { e.name }`, &escape)
	if escape != "ValidationError" {
		t.Fatalf("a traversal filename: %q", escape)
	}
	var named, huge string
	e.OK("dl", `files.download("`+srv.URL+`/x", "in/renamed.csv").name`, &named)
	e.OK("dl", `try { files.download("`+srv.URL+`/huge"); "fetched" } catch (e) { e.name + ": " + e.message }`, &huge)
	if named != "in/renamed.csv" || !strings.HasPrefix(huge, "LimitError") {
		t.Fatalf("named %q, over the cap %q", named, huge)
	}
	var refused string
	runtimetest.NewEnv(t, runtime.Config{Downloader: strict}).OK("dl", `try { files.download("`+srv.URL+`/x"); "fetched" } catch (e) { e.name + ": " + e.message }`, &refused)
	if !strings.HasPrefix(refused, "PermissionError") || !strings.Contains(refused, "loopback") {
		t.Fatalf("loopback without permission: %q", refused)
	}
	var off string
	runtimetest.NewEnv(t, runtime.Config{}).OK("dl", `try { files.download("`+srv.URL+`/x") } catch (e) { e.name }`, &off)
	if off != "PermissionError" {
		t.Fatalf("no downloader: %q", off)
	}
}
