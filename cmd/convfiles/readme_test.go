package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// block is one fenced code block of the README.
type block struct{ lang, body string }

func readmeBlocks(t *testing.T) []block {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	for _, m := range regexp.MustCompile("(?ms)^```(\\w*)\n(.*?)^```").FindAllStringSubmatch(string(b), -1) {
		out = append(out, block{m[1], m[2]})
	}
	return out
}

// TestReadmeExamples runs what the README shows: the quick start (its report
// must match the README's), every js example, every convfiles command line,
// the links the quick start prints, the documented error envelope, and the
// configuration example (which must spell out the defaults).
func TestReadmeExamples(t *testing.T) {
	blocks := readmeBlocks(t)
	c := newCLI(t)
	dir := t.TempDir()
	var jsBlocks []string
	var shLines []string
	var jsonBlocks []string
	for _, b := range blocks {
		switch b.lang {
		case "js":
			jsBlocks = append(jsBlocks, b.body)
		case "json":
			jsonBlocks = append(jsonBlocks, b.body)
		case "sh":
			for _, l := range strings.Split(b.body, "\n") {
				if strings.HasPrefix(l, "convfiles ") {
					shLines = append(shLines, l)
				}
			}
		case "toml":
			checkReadmeConfig(t, b.body)
		}
	}
	if len(jsBlocks) < 5 || len(shLines) < 8 || len(jsonBlocks) < 2 {
		t.Fatalf("README has %d js, %d command and %d json examples", len(jsBlocks), len(shLines), len(jsonBlocks))
	}

	quickstart := filepath.Join(dir, "quickstart.js")
	os.WriteFile(quickstart, []byte(jsBlocks[0]), 0o600)
	code, out, errs := c.run("", "run", "--conversation", "demo", quickstart)
	if code != 0 {
		t.Fatalf("quick start: exit %d: %s %s", code, out, errs)
	}
	assertSameJSON(t, "quick start report", out, jsonBlocks[0])
	checkQuickstartLinks(t, c, out, jsonBlocks[1])

	for i, src := range jsBlocks[1:] {
		code, out, errs := c.run(src, "run", "--conversation", "demo", "-")
		if code != 0 || strings.Contains(out, "undefined") {
			t.Errorf("js example %d: exit %d: %s %s", i+2, code, out, errs)
		}
	}
	for _, line := range shLines {
		args := strings.Fields(strings.ReplaceAll(line, "quickstart.js", quickstart))[1:]
		if code, out, errs := c.run("", args...); code != 0 {
			t.Errorf("%s: exit %d: %s %s", line, code, out, errs)
		}
	}
}

func assertSameJSON(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s: %v in %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the README's JSON: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s differs from the README\n got: %s\nwant: %s", what, got, want)
	}
}

// checkQuickstartLinks serves the quick start's conversation and opens its
// links as a browser would, and a missing file for the error envelope.
func checkQuickstartLinks(t *testing.T, c *cli, report, errorExample string) {
	t.Helper()
	cfg := defaultConfig()
	cfg.DataDir = c.dataDir
	cfg.Server.Address = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	quiet := &env{stdout: io.Discard, stderr: io.Discard, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	go func() { done <- serve(ctx, quiet, cfg, ready) }()
	addr := <-ready
	var rep struct{ Result map[string]string }
	json.Unmarshal([]byte(report), &rep)
	for key, ctype := range map[string]string{"table": "text/csv; charset=utf-8", "chart": "image/png"} {
		link := strings.Replace(rep.Result[key], "127.0.0.1:8080", addr, 1)
		resp, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ctype || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "inline") {
			t.Errorf("%s: %d %v", link, resp.StatusCode, resp.Header)
		}
	}
	resp, err := http.Get("http://" + addr + "/files/demo/nope.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assertSameJSON(t, "error envelope", string(b), errorExample)
	cancel()
	<-done
}

func checkReadmeConfig(t *testing.T, body string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte(body), 0o600)
	got, err := loadConfig(p, true)
	if err != nil {
		t.Fatalf("the README's configuration does not load: %v", err)
	}
	if want := defaultConfig(); !reflect.DeepEqual(got, want) {
		t.Errorf("the README's configuration is not the defaults:\n got %+v\nwant %+v", got, want)
	}
}
