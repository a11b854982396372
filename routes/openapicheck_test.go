package routes

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

var (
	specOnce   sync.Once
	specRouter routers.Router
	specErr    error
)

// checkOpenAPI validates one exchange of a REST test against
// openapi.json: the request (its path, parameters and JSON body) and the
// answer (its status and, when JSON, its body). What a test sends on
// purpose against the rules (a malformed body, an unknown parameter) is
// the server's to refuse, so a request the description refuses needs an
// answer that refuses it too.
func checkOpenAPI(t testing.TB, req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) {
	t.Helper()
	specOnce.Do(func() {
		doc := loadOpenAPI(t)
		doc.Servers = nil // any host: the tests' servers listen on free ports
		specRouter, specErr = gorillamux.NewRouter(doc)
	})
	if specErr != nil {
		t.Fatalf("openapi.json: %v", specErr)
	}
	if strings.HasPrefix(req.URL.Path, "/files/") {
		return // a link's name has folders: the path template cannot hold them
	}
	probe := req.Clone(context.Background())
	probe.Body = io.NopCloser(bytes.NewReader(reqBody))
	route, params, err := specRouter.FindRoute(probe)
	if err != nil {
		t.Errorf("openapi.json has no operation for %s %s: %v", req.Method, req.URL.Path, err)
		return
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
	if !strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
		opts.ExcludeRequestBody = true // uploads: multipart, checked by their tests
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route, Options: opts}
	reqErr := openapi3filter.ValidateRequest(context.Background(), in)
	if reqErr != nil && resp.StatusCode < 400 {
		t.Errorf("%s %s: the request does not follow openapi.json, yet the server answered %d: %v", req.Method, req.URL.Path, resp.StatusCode, reqErr)
	}
	respOpts := *opts
	respOpts.IncludeResponseStatus = true
	respOpts.ExcludeResponseBody = !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json")
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
		Body: io.NopCloser(bytes.NewReader(respBody)), Options: &respOpts}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("%s %s: the answer %d does not follow openapi.json: %v\n%.400s", req.Method, req.URL.Path, resp.StatusCode, err, respBody)
	}
}

// exchange sends req through the test's client and checks it and its
// answer against openapi.json; it returns the answer and its body.
func exchange(t testing.TB, req *http.Request, reqBody []byte) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	checkOpenAPI(t, req, reqBody, resp, b)
	return resp, b
}
