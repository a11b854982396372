package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

// cli runs one command line in-process with its own output buffers.
type cli struct {
	t       *testing.T
	dataDir string
	config  string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, nil, 0o600)
	return &cli{t: t, dataDir: filepath.Join(dir, "data"), config: cfg}
}

func (c *cli) run(stdin string, args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errb bytes.Buffer
	full := append([]string{args[0], "--config", c.config, "--data-dir", c.dataDir}, args[1:]...)
	code = run(full, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func TestRunWritesIntoXDGDataHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	xdg.Reload()
	defer xdg.Reload()
	var out, errb bytes.Buffer
	code := run([]string{"run", "--conversation", "conv-42"}, &env{
		stdin: strings.NewReader(`write_file("report.md", "# Hi")`), stdout: &out, stderr: &errb})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(home, "data", "convfiles", "files", "conv-42", "report.md"))
	if err != nil || string(b) != "# Hi" {
		t.Fatalf("file not under $XDG_DATA_HOME/convfiles/files/<id>/: %v %q", err, b)
	}
	var rep struct {
		Result string
	}
	json.Unmarshal(out.Bytes(), &rep)
	if rep.Result != "http://127.0.0.1:8080/files/conv-42/report.md" {
		t.Fatalf("result %q", rep.Result)
	}
}

func TestRunReportsScriptErrorsWithExitStatus1(t *testing.T) {
	c := newCLI(t)
	code, out, _ := c.run(`throw new Error("nope")`, "run", "--conversation", "c")
	if code != 1 || !strings.Contains(out, `"type": "ExecutionError"`) || !strings.Contains(out, "nope") {
		t.Fatalf("exit %d, report %s", code, out)
	}
	code, _, errs := c.run("", "run", "--conversation", "c", "--dir", "/tmp/x")
	if code != 2 || !strings.Contains(errs, "not both") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestRunStandaloneDir(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(t.TempDir(), "toolscript-files")
	script := filepath.Join(t.TempDir(), "s.js")
	os.WriteFile(script, []byte(`write_file("sub/out.txt", "standalone")`), 0o600)
	code, out, errs := c.run("", "run", "--dir", dir, script)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sub", "out.txt"))
	if err != nil || string(b) != "standalone" {
		t.Fatalf("%v %q", err, b)
	}
	if !strings.Contains(out, filepath.Join(dir, "sub", "out.txt")) {
		t.Fatalf("write_file in a standalone folder should return the host path: %s", out)
	}
}

func TestLsCatRm(t *testing.T) {
	c := newCLI(t)
	c.run(`write_file("a.txt", "alpha"); write_file("b/c.txt", "gamma")`, "run", "--conversation", "c1")
	_, out, _ := c.run("", "ls")
	if !strings.Contains(out, "c1") || !strings.Contains(out, "2 ") {
		t.Errorf("ls: %s", out)
	}
	_, out, _ = c.run("", "ls", "--conversation", "c1")
	if !strings.Contains(out, "a.txt") || !strings.Contains(out, "b/c.txt") {
		t.Errorf("ls --conversation: %s", out)
	}
	if _, out, _ = c.run("", "cat", "--conversation", "c1", "b/c.txt"); out != "gamma" {
		t.Errorf("cat: %q", out)
	}
	code, out, errs := c.run("", "rm", "--conversation", "c1", "a.txt", "missing.txt")
	if code != 1 || !strings.Contains(out, "removed a.txt") || !strings.Contains(errs, "no such file") {
		t.Errorf("rm: %d %q %q", code, out, errs)
	}
}

func TestConfigRejectsUnknownKeysAndFlagsOverride(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[runtime]\ntimeout = \"5s\"\ntimout = \"1s\"\n"), 0o600)
	code, _, errs := c.run("1", "run")
	if code != 1 || !strings.Contains(errs, "unknown keys runtime.timout") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	os.WriteFile(c.config, []byte("[runtime]\ntimeout = \"50ms\"\n"), 0o600)
	code, out, _ := c.run("for(;;){}", "run")
	if code != 1 || !strings.Contains(out, "timeout of 50ms") {
		t.Fatalf("config timeout not applied: %s", out)
	}
	code, out, _ = c.run("for(;;){}", "run", "--timeout", "80ms")
	if code != 1 || !strings.Contains(out, "timeout of 80ms") {
		t.Fatalf("flag did not override the config: %s", out)
	}
}

func TestPrompt(t *testing.T) {
	c := newCLI(t)
	_, out, _ := c.run("", "prompt")
	if !strings.Contains(out, "write_file(name, content)") {
		t.Fatalf("prompt: %q", out)
	}
}

func TestServeServesLinks(t *testing.T) {
	c := newCLI(t)
	_, out, _ := c.run(`write_file("hello.txt", "hi there")`, "run", "--conversation", "s1")
	if !strings.Contains(out, "/files/s1/hello.txt") {
		t.Fatal(out)
	}
	addr, stop := startServe(t, c.dataDir)
	resp, err := http.Get("http://" + addr + "/files/s1/hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "hi there" {
		t.Fatalf("served %q", b)
	}
	stop()
}

// startServe runs convfiles serve in-process on a free loopback port over
// dataDir; stop shuts it down and fails the test if that goes wrong.
func startServe(t *testing.T, dataDir string, adjust ...func(*Config)) (addr string, stop func()) {
	t.Helper()
	cfg := defaultConfig()
	cfg.DataDir = dataDir
	cfg.Server.Address = "127.0.0.1:0"
	cfg.Server.MCPTools = []string{"all"} // the doors' tests call every tool; the default profile is tested on its own
	for _, f := range adjust {
		f(&cfg)
	}
	quiet := &env{stdout: io.Discard, stderr: io.Discard, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return serveInProcess(t, quiet, cfg)
}

// serveInProcess runs serve with cfg and e until stop, which fails the
// test when the shutdown goes wrong.
func serveInProcess(t *testing.T, e *env, cfg Config) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, e, cfg, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v", err)
	}
	return addr, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}
}

func TestPublicURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		":8080":          "http://localhost:8080",
		"0.0.0.0:9000":   "http://localhost:9000",
		"[::]:9000":      "http://localhost:9000",
		"[::1]:9000":     "http://[::1]:9000",
	} {
		cfg := defaultConfig()
		cfg.Server.Address = addr
		if got := cfg.publicURL(); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
	cfg := defaultConfig()
	cfg.Server.PublicURL = "https://files.example.com/cf/"
	if got := cfg.publicURL(); got != "https://files.example.com/cf" {
		t.Errorf("public_url: %s", got)
	}
}

func TestIOConfigAndModes(t *testing.T) {
	dir := t.TempDir()
	load := func(body string) (Config, error) {
		p := filepath.Join(dir, "c.toml")
		os.WriteFile(p, []byte(body), 0o600)
		return loadConfig(p, true)
	}
	cfg, err := load("[output]\ndir = \"./code-mcp-output\"\nmax_bytes = 1000\nenabled = true\n")
	if err != nil || cfg.ioDir() != "./code-mcp-output" || cfg.maxExecutionBytes() != 1000 || !cfg.scriptFiles() {
		t.Fatalf("[output] as [io]: %v %+v", err, cfg.IO)
	}
	if _, err := load("[io]\ndir = \"a\"\n[output]\ndir = \"b\"\n"); err == nil || !strings.Contains(err.Error(), "older spelling") {
		t.Fatalf("both sections: %v", err)
	}
	cfg, _ = load("mode = \"hosted\"\n")
	if cfg.scriptFiles() {
		t.Fatal("hosted mode gives scripts files by default")
	}
	cfg, _ = load("mode = \"hosted\"\n[io]\nenabled = true\n")
	if !cfg.scriptFiles() {
		t.Fatal("[io] enabled = true did not turn files on in hosted mode")
	}
	if _, err := load("mode = \"cloud\"\n"); err == nil {
		t.Fatal("an unknown mode was accepted")
	}
	cfg, _ = load("")
	if cfg.ioDir() != filepath.Join(cfg.DataDir, "io") || cfg.workspaceDir() != filepath.Join(cfg.DataDir, "workspace") || !cfg.scriptFiles() {
		t.Fatalf("defaults: %s %s", cfg.ioDir(), cfg.workspaceDir())
	}
}

func TestServeRunsSavedCode(t *testing.T) {
	c := newCLI(t)
	addr, stop := startServe(t, c.dataDir)
	defer stop()
	base := "http://" + addr
	post := func(method, path, body string) string {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if out := post("PUT", "/workspace", `{"codeId":"hello","code":"const n: number = 41; io.open(\"out.txt\", \"w\").write(String(n + 1)).close(); n + 1"}`); !strings.Contains(out, `"filePath":"`+filepath.Join(c.dataDir, "workspace", "hello.ts")) {
		t.Fatalf("save: %s", out)
	}
	if out := post("POST", "/execute", `{"codeId":"hello"}`); !strings.Contains(out, `"result":42`) || !strings.Contains(out, `"op":"write"`) {
		t.Fatalf("execute: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(c.dataDir, "io", "out.txt")); err != nil || string(b) != "42" {
		t.Fatalf("io folder: %v %q", err, b)
	}
}

func TestServeFlags(t *testing.T) {
	c := newCLI(t)
	quiet := &env{stdout: io.Discard, stderr: io.Discard}
	for flag, want := range map[string]string{"--io-dir": "/srv/io", "--output-dir": "/srv/out"} {
		cfg, err := serveConfig(quiet, []string{"--config", c.config, flag, want, "--addr", "127.0.0.1:9999", "--public-url", "https://f.example/"})
		if err != nil || cfg.ioDir() != want || cfg.Server.Address != "127.0.0.1:9999" || cfg.publicURL() != "https://f.example" {
			t.Errorf("%s: %v %+v", flag, err, cfg.Server)
		}
	}
	if _, err := serveConfig(quiet, []string{"--config", c.config, "extra"}); err == nil {
		t.Error("a stray argument was accepted")
	}
	// Seeds 000 and 001: the io folder may not climb with "..", and (ours)
	// may not overlap the conversations' folder, by flag or by config.
	for _, bad := range []struct{ dir, why string }{
		{"../toolscript-files", `climbs with ".."`},
		{"/srv/io/../../etc", `climbs with ".."`},
		{filepath.Join(c.dataDir, "files"), "overlaps the conversations' folder"},
		{filepath.Join(c.dataDir, "files", "conv1"), "overlaps the conversations' folder"},
		{c.dataDir, "overlaps the conversations' folder"},
	} {
		if _, err := serveConfig(quiet, []string{"--config", c.config, "--data-dir", c.dataDir, "--io-dir", bad.dir}); err == nil || !strings.Contains(err.Error(), bad.why) {
			t.Errorf("--io-dir %s: %v, want %q", bad.dir, err, bad.why)
		}
	}
	os.WriteFile(c.config, []byte("[output]\ndir = \"out/../../up\"\n"), 0o600)
	if _, err := serveConfig(quiet, []string{"--config", c.config}); err == nil || !strings.Contains(err.Error(), `climbs with ".."`) {
		t.Errorf("[output] dir with ..: %v", err)
	}
}
