package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeRunningSeveralReplicas starts two replicas with the README's
// configuration, pointed at the test's PostgreSQL and S3 servers, makes
// the README's key, uploads through one replica and downloads, by the
// link that replica signed, through the other.
func TestReadmeRunningSeveralReplicas(t *testing.T) {
	section := readmeSection(t, "## Running several replicas", "### Large files straight from the bucket")
	blocks := regexp.MustCompile("(?ms)^```(\\w*)\n(.*?)^```").FindAllStringSubmatch(section, -1)
	if len(blocks) != 2 || blocks[0][1] != "toml" || blocks[1][1] != "bash" {
		t.Fatalf("the section has %d blocks; want its configuration and its command", len(blocks))
	}
	storage, _, bucket := distributedConfig(t, "")
	endpoint := regexp.MustCompile(`endpoint = "(.*)"`).FindStringSubmatch(storage)[1]
	toml := strings.NewReplacer(
		`"postgres://convfiles@db.internal:5432/convfiles"`, fmt.Sprintf("%q", regexp.MustCompile(`index = "(.*)"`).FindStringSubmatch(storage)[1]),
		`"s3://convfiles-files/prod"`, fmt.Sprintf("%q", "s3://"+bucket+"/prod"),
		`"https://s3.example.com"`, fmt.Sprintf("%q\naccess_key = %q\nsecret_key = %q", endpoint, "convfiles-test", "convfiles-test-secret"),
		`"k1:REPLACE-WITH-convfiles-keys-signing-key"`, `"k1:`+strings.Repeat("ab", 32)+`"`,
		`address = "0.0.0.0:8080"`, `address = "127.0.0.1:0"`,
	).Replace(blocks[0][2])
	var replicas []*serverProcess
	var dirs []string
	for range 2 {
		dir := t.TempDir()
		dirs = append(dirs, dir)
		p := startServerProcessWith(t, dir, strings.Replace(toml, `public_url = "https://files.example.com"`, "", 1))
		t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
		replicas = append(replicas, p)
	}
	c := newCLI(t)
	os.WriteFile(c.config, []byte(toml), 0o600)
	var key string
	for _, line := range strings.Split(strings.TrimSpace(blocks[1][2]), "\n") {
		code, out, errs := c.run("", shellWords(line)[1:]...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, errs)
		}
		if strings.Contains(line, "keys create") {
			key = strings.TrimSpace(out)
		} else if !strings.Contains(out, `"removed": 0`) {
			t.Errorf("%s on a fresh store: %s", line, out)
		}
	}
	up := uploadWithKey(t, replicas[0].base, key, "acme-1", "hello.txt", "from the first replica")
	link := strings.Replace(up, replicas[0].base, replicas[1].base, 1)
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "from the first replica" {
		t.Fatalf("the link the first replica signed, on the second: %d %q", resp.StatusCode, body)
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "convfiles", "files", "acme-1")); err == nil {
			t.Fatal("a replica wrote the conversation into its data folder")
		}
	}
}

// uploadWithKey uploads body as name into conv with a bearer key and
// returns the link the answer carries.
func uploadWithKey(t testing.TB, base, key, conv, name, body string) string {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("file", name)
	w.Write([]byte(body))
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/files/upload?conversation="+conv, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Result struct {
			Files []struct {
				URL string `json:"url"`
			} `json:"files"`
		} `json:"result"`
	}
	json.Unmarshal(raw, &env)
	if resp.StatusCode != http.StatusCreated || len(env.Result.Files) != 1 {
		t.Fatalf("upload: %d %s", resp.StatusCode, raw)
	}
	return env.Result.Files[0].URL
}
