package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"path/filepath"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
)

// apiEnv is a real HTTP server on a loopback port over an indexed Store.
type apiEnv struct {
	t     testing.TB
	srv   *httptest.Server
	store *engine.Store
	dir   string // the store's folder of conversations
	// indexPath is the metadata index's file.
	indexPath string
	server    *Server
}

func newAPIEnv(t testing.TB, opts engine.Options) *apiEnv {
	t.Helper()
	return newAPIEnvAt(t, filepath.Join(t.TempDir(), "files"), opts)
}

func newAPIEnvAt(t testing.TB, dir string, opts engine.Options) *apiEnv {
	t.Helper()
	opts.Bus = files.NewBus()
	store, indexPath := storetest.Open(t, dir, opts)
	e := &apiEnv{t: t, store: store, dir: dir, indexPath: indexPath}
	e.srv = httptest.NewUnstartedServer(nil)
	base := "http://" + e.srv.Listener.Addr().String()
	h := New(Config{Store: store, API: true, Links: Links{Base: base}})
	e.srv.Config.Handler = h
	e.server = h
	e.srv.Start()
	t.Cleanup(func() { h.Shutdown(); e.srv.Close() }) // before storetest closes the Store
	return e
}

// part is one file of a multipart upload.
type part struct {
	name, ctype string
	body        []byte
}

// uploadBody builds a multipart body; fields come first, in order.
func uploadBody(t testing.TB, fields [][2]string, parts ...part) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="`+p.name+`"`)
		if p.ctype != "" {
			h.Set("Content-Type", p.ctype)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p.body)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// upload posts parts to conversation conv and decodes the envelope.
func (e *apiEnv) upload(conv, query string, parts ...part) (int, envelopeOf[struct{ Files []fileOut }]) {
	e.t.Helper()
	body, ctype := uploadBody(e.t, nil, parts...)
	raw := body.Bytes()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/api/files/upload?conversation="+conv+query, bytes.NewReader(raw))
	req.Header.Set("Content-Type", ctype)
	resp, b := exchange(e.t, req, raw)
	var env envelopeOf[struct{ Files []fileOut }]
	if err := json.Unmarshal(b, &env); err != nil {
		e.t.Fatalf("%s: %v", b, err)
	}
	return resp.StatusCode, env
}

// do sends a request with an optional JSON body and decodes the answer.
func (e *apiEnv) do(method, path string, body any, out any) int {
	e.t.Helper()
	var raw []byte
	if r, ok := body.(rawJSON); ok {
		raw = []byte(r)
	} else if body != nil {
		raw, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, bytes.NewReader(raw))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, b := exchange(e.t, req, raw)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s: %v", b, err)
		}
	}
	return resp.StatusCode
}

func (e *apiEnv) get(path string) (*http.Response, []byte) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	return exchange(e.t, req, nil)
}

func decode(t testing.TB, resp *http.Response, out any) {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
}

// rawJSON is a request body sent exactly as written.
type rawJSON string

// envelopeOf is the API's JSON envelope with a typed result.
type envelopeOf[T any] struct {
	Success bool      `json:"success"`
	Result  T         `json:"result"`
	Error   errorBody `json:"error"`
}

// fileOut is a file as the API returns it.
type fileOut struct {
	ID, Conversation, Name, URL string
	MIME                        string `json:"mime_type"`
	Size                        int64
	SHA256                      string
	Version                     int
	Source                      string
	DownloadURL                 string `json:"download_url"`
	ViewURL                     string `json:"view_url"`
}

// write stores a file in a conversation directly, as a script would.
func write(t testing.TB, store *engine.Store, conv, name, body string) files.Info {
	t.Helper()
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	info, err := sp.WriteBytes(context.Background(), name, []byte(body), files.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return info
}
