package main

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestServeRefusesNonLoopbackWithoutOverride: a server others could reach
// does not start until the operator says a proxy authenticates for it, and
// the message says why and how; loopback addresses start as before.
func TestServeRefusesNonLoopbackWithoutOverride(t *testing.T) {
	for addr, refused := range map[string]bool{
		"0.0.0.0:8080": true, ":8080": true, "[::]:8080": true, "192.0.2.10:8080": true,
		"127.0.0.1:8080": false, "127.0.0.2:0": false, "[::1]:8080": false, "localhost:8080": false,
	} {
		err := checkExposure(addr, false)
		if refused != (err != nil) {
			t.Errorf("%s: %v", addr, err)
		}
		if err != nil && (!strings.Contains(err.Error(), "nothing authenticates") || !strings.Contains(err.Error(), "hosted") || !strings.Contains(err.Error(), "allow_remote")) {
			t.Errorf("%s: the refusal does not say why and how: %v", addr, err)
		}
		if err := checkExposure(addr, true); err != nil {
			t.Errorf("%s with allow_remote: %v", addr, err)
		}
	}
	c := newCLI(t)
	code, _, errs := c.run("", "serve", "--addr", "0.0.0.0:0")
	if code == 0 || !strings.Contains(errs, "refusing to listen on 0.0.0.0:0") {
		t.Fatalf("serve on 0.0.0.0: exit %d: %s", code, errs)
	}
}

// TestAccessConfig: allowed hosts and CORS origins are read from [server],
// and an origin that is not scheme://host is refused with the key's name.
func TestAccessConfig(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[server]\nallowed_hosts = [\"files.example\"]\ncors_origins = [\"https://chat.example\"]\n"), 0o600)
	cfg, err := loadConfig(c.config, true)
	if err != nil || cfg.access().Hosts[0] != "files.example" || cfg.access().CORSOrigins[0] != "https://chat.example" {
		t.Fatalf("%v %+v", err, cfg.Server)
	}
	os.WriteFile(c.config, []byte("[server]\ncors_origins = [\"chat.example/app\"]\n"), 0o600)
	if _, err := loadConfig(c.config, true); err == nil || !strings.Contains(err.Error(), "server.cors_origins") {
		t.Fatalf("a bad origin: %v", err)
	}
}

// TestServeCapsHeaders: request headers past 64 KiB are refused with 431
// before any handler runs.
func TestServeCapsHeaders(t *testing.T) {
	addr, stop := startServe(t, t.TempDir())
	defer stop()
	req, _ := http.NewRequest("GET", "http://"+addr+"/healthz", nil)
	req.Header.Set("X-Padding", strings.Repeat("x", 100<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("100 KiB of headers: %d", resp.StatusCode)
	}
}

// TestSandboxConfig: [sandbox] is read, and a negative worker count or a
// format timeout that is not positive is refused with the key's name.
func TestSandboxConfig(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[sandbox]\nworkers = 3\nformat_timeout = \"10s\"\n"), 0o600)
	cfg, err := loadConfig(c.config, true)
	if err != nil || cfg.Sandbox.Workers != 3 || cfg.Sandbox.FormatTimeout.Seconds() != 10 {
		t.Fatalf("%v %+v", err, cfg.Sandbox)
	}
	for _, bad := range []string{"workers = -1", "format_timeout = \"0s\""} {
		os.WriteFile(c.config, []byte("[sandbox]\n"+bad+"\n"), 0o600)
		if _, err := loadConfig(c.config, true); err == nil || !strings.Contains(err.Error(), "sandbox.") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
