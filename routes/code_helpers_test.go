package routes

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/runtime"
)

// codeEnv is a real server with the code routes over a real store, a
// workspace folder and a default script folder.
type codeEnv struct {
	t       *testing.T
	srv     *httptest.Server
	store   *engine.Store
	workDir string
	ioDir   string
	logs    *bytes.Buffer
}

func newCodeEnv(t *testing.T, mutate func(*Config)) *codeEnv {
	t.Helper()
	dir := t.TempDir()
	store, err := engine.OpenStore(filepath.Join(dir, "files"), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	work, _ := engine.OpenDir(filepath.Join(dir, "workspace"), engine.Options{Limits: files.Limits{MaxFileBytes: MaxCodeBytes + 1}})
	ioSpace, _ := engine.OpenDir(filepath.Join(dir, "io"), engine.Options{})
	t.Cleanup(func() { work.Close(); ioSpace.Close() })
	logs := &bytes.Buffer{}
	links := Links{Base: "http://127.0.0.1:8080"}
	cfg := Config{
		Store:              store,
		Links:              links,
		Logger:             slog.New(slog.NewJSONHandler(logs, nil)),
		Runner:             runtime.New(runtime.Config{Link: links.URL}),
		Workspace:          work,
		ScriptFiles:        true,
		DefaultScriptSpace: ioSpace,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	srv := httptest.NewServer(New(cfg))
	t.Cleanup(srv.Close)
	return &codeEnv{t: t, srv: srv, store: store, workDir: filepath.Join(dir, "workspace"), ioDir: filepath.Join(dir, "io"), logs: logs}
}

// call sends body (marshalled unless it is a string or []byte) and decodes
// the answer.
func (e *codeEnv) call(method, path string, body any) (int, http.Header, map[string]any) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		e.t.Fatalf("%s %s: not JSON: %q", method, path, raw)
	}
	return resp.StatusCode, resp.Header, out
}

func errOf(m map[string]any) (typ, msg string, details map[string]any) {
	e, _ := m["error"].(map[string]any)
	typ, _ = e["type"].(string)
	msg, _ = e["message"].(string)
	details, _ = e["details"].(map[string]any)
	return
}
