package main

import (
	"bytes"
	"convfiles/auth"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log buffer that the server and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// hostedServe starts serve in hosted mode on the CLI's data folder, with
// its log in a buffer.
func hostedServe(t *testing.T, c *cli) (base string, log *syncBuffer) {
	t.Helper()
	cfg, err := loadConfig(c.config, true)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir, cfg.Mode, cfg.Server.Address = c.dataDir, "hosted", "127.0.0.1:0"
	log = &syncBuffer{}
	e := &env{stdout: io.Discard, stderr: io.Discard, logger: newLogger(log, LogConfig{Level: "info", Format: "json"})}
	addr, stop := serveInProcess(t, e, cfg)
	t.Cleanup(stop)
	return "http://" + addr, log
}

// request sends a request with an optional bearer credential and returns
// the status and the body.
func request(t *testing.T, method, url, cred, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b)
}

// TestHostedServeWithKeysFromTheCLI: a hosted server refuses a request
// without a credential; a key created with convfiles keys create works,
// mints a token, shows in keys list without its secret, and stops
// working when revoked. The access log names the key, never the key or
// the token; /metrics answers an admin key.
func TestHostedServeWithKeysFromTheCLI(t *testing.T) {
	c := newCLI(t)
	c.run(`write_file("a.txt", "hello")`, "run", "--conversation", "acme-1", "-")
	base, log := hostedServe(t, c)

	if code, body := request(t, "GET", base+"/api/conversations", "", ""); code != 401 || !strings.Contains(body, "AuthenticationError") {
		t.Fatalf("no credential: %d %s", code, body)
	}
	if code, _ := request(t, "GET", base+"/", "", ""); code != 200 {
		t.Fatalf("the page (sign-in form) without a credential: %d", code)
	}
	code, key, stderr := c.run("", "keys", "create", "--name", "chat backend", "--scopes", "read,write", "--tenant", "acme-")
	key = strings.TrimSpace(key)
	if code != 0 || !strings.HasPrefix(key, "cfk_") || !strings.Contains(stderr, "shown only this once") {
		t.Fatalf("keys create: %d %q %s", code, key, stderr)
	}
	code, body := request(t, "GET", base+"/api/conversations/acme-1/files", key, "")
	if code != 200 || !strings.Contains(body, `"a.txt"`) || !strings.Contains(body, "?exp=") {
		t.Fatalf("key lists its tenant's files with signed links: %d %s", code, body)
	}
	code, body = request(t, "POST", base+"/api/tokens", key, `{"scopes": ["read"], "conversations": ["acme-1"], "ttl_seconds": 600}`)
	var minted struct {
		Result struct {
			Token string `json:"token"`
		} `json:"result"`
	}
	json.Unmarshal([]byte(body), &minted)
	if code != 200 || minted.Result.Token == "" {
		t.Fatalf("mint: %d %s", code, body)
	}
	tok := minted.Result.Token
	if code, _ := request(t, "GET", base+"/api/conversations/acme-1/files", tok, ""); code != 200 {
		t.Fatalf("token reads its conversation: %d", code)
	}
	if code, _ := request(t, "DELETE", base+"/api/conversations/acme-1", tok, ""); code != 403 {
		t.Fatalf("a read token deletes: %d", code)
	}
	_, list, _ := c.run("", "keys", "list", "--json")
	var keys []struct{ ID, Name, Scopes, Tenant string }
	if err := json.Unmarshal([]byte(list), &keys); err != nil || len(keys) != 1 || keys[0].Tenant != "acme-" || strings.Contains(list, key[4:]) {
		t.Fatalf("keys list: %v %s", err, list)
	}
	if code, _ := request(t, "GET", base+"/metrics", key, ""); code != 403 {
		t.Fatalf("/metrics for a non-admin key: %d", code)
	}
	_, admin, _ := c.run("", "keys", "create", "--name", "prometheus", "--scopes", "admin")
	code, body = request(t, "GET", base+"/metrics", strings.TrimSpace(admin), "")
	if code != 200 || !strings.Contains(body, `convfiles_http_requests_total{code="200",method="GET",route="/api/conversations/{conversation}/files"}`) {
		t.Fatalf("/metrics: %d %.2000s", code, body)
	}
	if code, _, stderr := c.run("", "keys", "revoke", keys[0].ID); code != 0 {
		t.Fatalf("revoke: %s", stderr)
	}
	// The server trusts a key record it read for a second (auth.KeyCache).
	deadline := time.Now().Add(auth.DefaultKeyCacheTTL + 5*time.Second)
	for _, cred := range []string{key, tok} {
		for {
			code, _ := request(t, "GET", base+"/api/conversations/acme-1/files", cred, "")
			if code == 401 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("revoked key or its token: %d", code)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	logged := log.String()
	if !strings.Contains(logged, `"credential":"key:`+keys[0].ID+`"`) || !strings.Contains(logged, `"route":"/api/tokens"`) {
		t.Fatalf("the access log does not name the key and the route:\n%s", logged)
	}
	if strings.Contains(logged, key) || strings.Contains(logged, tok) {
		t.Fatal("the access log holds a credential")
	}
}

// TestSigningKeysKeptInTheDataFolder: with no signing key configured,
// hosted mode generates one into <data_dir>/signing-keys, readable by its
// owner only, and uses the same one on the next start: tokens survive a
// restart.
func TestSigningKeysKeptInTheDataFolder(t *testing.T) {
	c := newCLI(t)
	cfg := defaultConfig()
	cfg.DataDir = c.dataDir
	first, err := cfg.keyring()
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(c.dataDir, "signing-keys"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("signing-keys: %v %v", err, st)
	}
	again, err := cfg.keyring()
	if err != nil || again[0].String() != first[0].String() {
		t.Fatalf("a second start made another key: %v", err)
	}
	_, printed, _ := c.run("", "keys", "signing-key", "--id", "k2")
	t.Setenv(signingKeysEnv, strings.TrimSpace(printed)+","+first[0].String())
	ring, err := cfg.keyring()
	if err != nil || len(ring) != 2 || ring[0].ID != "k2" {
		t.Fatalf("%s: %v %v", signingKeysEnv, ring, err)
	}
	os.WriteFile(c.config, []byte("[auth]\nsigning_keys = [\"short:AAAA\"]\n"), 0o600)
	if _, err := loadConfig(c.config, true); err == nil || !strings.Contains(err.Error(), "at least 32") {
		t.Fatalf("a short signing key: %v", err)
	}
}

// TestHostedScriptsDoWhatTheirCredentialMay: a script run in a worker
// process by a read-and-execute key reads its conversation and is refused
// a write; run by a key that may write, the link it returns is signed by
// the worker with its conversation's key, and opens without a credential.
func TestHostedScriptsDoWhatTheirCredentialMay(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[io]\nenabled = true\n"), 0o600)
	c.run(`write_file("a.txt", "hello")`, "run", "--conversation", "acme-1", "-")
	base, _ := hostedServe(t, c)
	_, reader, _ := c.run("", "keys", "create", "--name", "reader", "--scopes", "read,execute", "--tenant", "acme-")
	_, writer, _ := c.run("", "keys", "create", "--name", "writer", "--scopes", "read,write,execute", "--tenant", "acme-")

	code, body := request(t, "POST", base+"/execute", strings.TrimSpace(reader),
		`{"conversationId": "acme-1", "code": "const a = read_file('a.txt'); write_file('b.txt', a)"}`)
	if code != 500 || !strings.Contains(body, "PermissionError") || !strings.Contains(body, "may not write") { // a failed script is seed 002's 500
		t.Fatalf("a read-only script writes: %d %s", code, body)
	}
	code, body = request(t, "POST", base+"/execute", strings.TrimSpace(writer),
		`{"conversationId": "acme-1", "code": "write_file('b.txt', read_file('a.txt').get_str() + ' again')"}`)
	var out struct {
		Result string `json:"result"`
	}
	json.Unmarshal([]byte(body), &out)
	link := out.Result
	if code != 200 || !strings.Contains(link, "/files/acme-1/b.txt?exp=") {
		t.Fatalf("a writer's script: %d %s", code, body)
	}
	if code, got := request(t, "GET", link, "", ""); code != 200 || got != "hello again" {
		t.Fatalf("the worker's signed link: %d %q", code, got)
	}
	if code, _ := request(t, "GET", strings.Replace(link, "b.txt", "a.txt", 1), "", ""); code != 403 {
		t.Fatalf("the link's signature opens another file: %d", code)
	}
	_, admin, _ := c.run("", "keys", "create", "--name", "prometheus", "--scopes", "admin")
	_, metrics := request(t, "GET", base+"/metrics", strings.TrimSpace(admin), "")
	for _, want := range []string{`convfiles_script_runs_total{outcome="ok"} 1`, `convfiles_script_runs_total{outcome="ExecutionError"} 1`,
		`convfiles_file_events_total{type="file:created"} 1`, `convfiles_bytes_written_total 11`, "convfiles_stored_bytes "} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s:\n%s", want, regexp.MustCompile(`(?m)^convfiles_(script|file|bytes|stored).*$`).FindAllString(metrics, -1))
		}
	}
}

// TestVersionAndLogConfig: --version prints the version; [log] chooses the
// level and JSON output, and a bad value is refused with what is allowed.
func TestVersionAndLogConfig(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"--version"}, &env{stdout: &out, stderr: io.Discard}); code != 0 || !strings.HasPrefix(out.String(), "convfiles ") {
		t.Fatalf("--version: %d %q", code, out.String())
	}
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[log]\nlevel = \"warn\"\nformat = \"json\"\n"), 0o600)
	cfg, err := loadConfig(c.config, true)
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	l := newLogger(&logged, cfg.Log)
	l.Info("hidden")
	l.Warn("shown", "k", 1)
	if strings.Contains(logged.String(), "hidden") || !strings.Contains(logged.String(), `"msg":"shown","k":1`) {
		t.Fatalf("[log] warn/json: %s", logged.String())
	}
	os.WriteFile(c.config, []byte("[log]\nlevel = \"loud\"\n"), 0o600)
	if _, err := loadConfig(c.config, true); err == nil || !strings.Contains(err.Error(), "debug, info, warn or error") {
		t.Fatalf("a bad level: %v", err)
	}
}

// TestReadmeHostedDeployment runs the README's Hosted deployment section:
// its configuration serves, and every command and request of its example
// works as shown, the key and the token it mints carried from line to line.
func TestReadmeHostedDeployment(t *testing.T) {
	section := readmeSection(t, "## Hosted deployment", "")
	c := newCLI(t)
	var script []string
	for _, m := range regexp.MustCompile("(?ms)^```(\\w*)\n(.*?)^```").FindAllStringSubmatch(section, -1) {
		switch m[1] {
		case "toml":
			os.WriteFile(c.config, []byte(m[2]), 0o600)
		case "bash":
			script = append(script, strings.Split(m[2], "\n")...)
		}
	}
	base, _ := hostedServe(t, c)
	var key, keyID, token string
	ran := 0
	for _, line := range script {
		line = strings.NewReplacer("$KEY", key, "$TOKEN", token, "KEY_ID", keyID).Replace(line)
		switch {
		case strings.HasPrefix(line, "convfiles "):
			code, out, errs := c.run("", shellWords(line)[1:]...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", line, code, errs)
			}
			if strings.Contains(line, "keys create") {
				key = strings.TrimSpace(out)
				keyID = strings.SplitN(strings.TrimPrefix(key, "cfk_"), "_", 2)[0]
			}
		case strings.HasPrefix(line, "curl "):
			out := runCurl(t, base, line)
			if strings.Contains(line, "/api/tokens") {
				var minted struct{ Result struct{ Token string } }
				json.Unmarshal(out, &minted)
				token = minted.Result.Token
			}
			if strings.Contains(line, "Bearer "+token) && token != "" && !strings.Contains(string(out), "hello.txt") {
				t.Fatalf("the token does not list the script's file: %s", out)
			}
		default:
			continue
		}
		ran++
	}
	if ran < 8 || token == "" {
		t.Fatalf("ran %d lines of the README's example; token %q", ran, token)
	}
}

// TestSignLinksInLocalMode: [auth] sign_links signs a local server's
// links: convfiles run hands out a link the server opens, and the same
// link unsigned or altered is refused.
func TestSignLinksInLocalMode(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[auth]\nsign_links = true\n"), 0o600)
	_, out, errs := c.run(`write_file("a.txt", "hello")`, "run", "--conversation", "demo", "-")
	var rep struct{ Result string }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || !strings.Contains(rep.Result, "/files/demo/a.txt?exp=") {
		t.Fatalf("run's link is not signed: %v %s %s", err, out, errs)
	}
	cfg, _ := loadConfig(c.config, true)
	addr, stop := startServe(t, c.dataDir, func(sc *Config) { sc.Auth = cfg.Auth })
	defer stop()
	signed := strings.Replace(rep.Result, "127.0.0.1:8080", addr, 1)
	if code, got := request(t, "GET", signed, "", ""); code != 200 || got != "hello" {
		t.Fatalf("the signed link: %d %q", code, got)
	}
	for what, link := range map[string]string{"unsigned": strings.SplitN(signed, "?", 2)[0],
		"for another file": strings.Replace(signed, "a.txt", "b.txt", 1)} {
		if code, body := request(t, "GET", link, "", ""); code != 403 || !strings.Contains(body, "PermissionError") {
			t.Errorf("%s link: %d %s", what, code, body)
		}
	}
}

// TestKeysAndAuthConfigRefusals: the keys commands and the [auth] and
// [server] keys refuse what they cannot do, saying what is allowed.
func TestKeysAndAuthConfigRefusals(t *testing.T) {
	c := newCLI(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"keys", "create", "--name", "x", "--scopes", "read,fly"}, "scopes are read, write, execute and admin"},
		{[]string{"keys", "create", "--name", "x", "--scopes", "read", "--tenant", "acme"}, `does not end in "-" or "_"`},
		{[]string{"keys", "create", "--name", "x", "--scopes", "read", "--tenant", "acme-", "--conversations", "acme-1"}, "not both"},
		{[]string{"keys", "create", "--scopes", "read"}, "needs --name and --scopes"},
		{[]string{"keys", "revoke", "000000000000"}, "no API key has this ID"},
		{[]string{"keys", "revoke"}, "one key ID"},
		{[]string{"keys", "rotate"}, `unknown keys command "rotate"`},
		{[]string{"keys", "signing-key", "--id", "bad id"}, "letters, digits"},
	} {
		code, _, errs := c.run("", tc.args...)
		if code == 0 || !strings.Contains(errs, tc.says) {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
		}
	}
	for toml, says := range map[string]string{
		"[auth.jwt]\nissuer = \"https://id.example\"\n": "needs issuer, audience and jwks_url",
		"[auth]\ntoken_ttl = \"48h\"\n":                 "auth.token_ttl between 1s and 24h",
		"[auth]\nlink_ttl = \"0s\"\n":                   "auth.link_ttl must be from 1s to auth.link_max_lifetime",
		"[auth]\nlink_ttl = \"200h\"\n":                 "auth.link_max_lifetime (168h0m0s: a link lives no longer)",
		"[auth]\nlink_max_lifetime = \"0s\"\n":          "auth.link_max_lifetime must be from 1m",
		"[server]\nmcp_session_idle = \"0s\"\n":         "mcp_session_idle must be positive",
		"[log]\nformat = \"xml\"\n":                     `log.format "xml"`,
		"[auth]\nsigning_kys = []\n":                    "unknown keys auth.signing_kys",
	} {
		os.WriteFile(c.config, []byte(toml), 0o600)
		if _, err := loadConfig(c.config, true); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v", toml, err)
		}
	}
}
