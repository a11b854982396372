package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// runCurl sends what a README curl line sends, to base instead of
// localhost:8080, requires a successful answer and returns its body.
// -F uploads a small notes.txt; -N reads an event stream's first lines.
func runCurl(t *testing.T, base, line string) []byte {
	t.Helper()
	args := shellWords(line)
	method, target, stream := "GET", "", false
	var body io.Reader
	var form []string
	var headers [][2]string
	ctype := "" // as curl: none without a body, a form's with -d
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-X":
			i++
			method = args[i]
		case "-d":
			i++
			body = strings.NewReader(args[i])
			ctype = "application/x-www-form-urlencoded"
		case "-H":
			i++
			if k, v, ok := strings.Cut(args[i], ": "); ok {
				headers = append(headers, [2]string{k, v})
			}
		case "-F":
			i++
			method = "POST"
			form = append(form, args[i])
		case "-N":
			stream = true
		case "-OJ":
		case "-o":
			i++
		default:
			target = strings.Replace(args[i], "http://localhost:8080", base, 1)
		}
	}
	if form != nil {
		body, ctype = curlForm(t, form)
	}
	// Out of reach of a slow machine: the first lint loads ESLint, which
	// takes many seconds under the race detector on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, target, body)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for _, h := range headers {
		req.Header.Set(h[0], h[1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if stream {
		first, _ := bufio.NewReader(resp.Body).ReadString('\n')
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") || !strings.HasPrefix(first, "retry:") {
			t.Errorf("%s\n→ %d %v %q", line, resp.StatusCode, resp.Header, first)
		}
		return nil
	}
	out, _ := io.ReadAll(resp.Body)
	ok := resp.StatusCode/100 == 2
	switch {
	case strings.HasSuffix(target, "/mcp"): // a JSON-RPC answer, as an event stream
		ok = ok && strings.Contains(string(out), `"serverInfo":{"name":"convfiles"`)
	case strings.HasSuffix(target, "/health"): // the Workspace API's, not enveloped
		ok = ok && strings.HasPrefix(string(out), `{"status":"ok"`)
	case strings.HasSuffix(target, "/openapi.json"): // a document, not an answer
		ok = ok && strings.Contains(string(out), `"openapi": "3.1.0"`)
	case strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"):
		ok = ok && strings.Contains(string(out), `"success":true`)
	}
	if !ok {
		t.Errorf("%s\n→ %d %s", line, resp.StatusCode, out)
	}
	return out
}
