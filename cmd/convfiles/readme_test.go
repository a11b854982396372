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
	"reflect"
	"strings"
	"testing"

	"convfiles/internal/docs"
	"convfiles/internal/samples"
)

// block is one fenced code block of the README.
type block struct{ lang, body string }

func readmeBlocks(t *testing.T) []block {
	t.Helper()
	var out []block
	for _, b := range docs.Blocks(t) {
		out = append(out, block{b.Lang, b.Body})
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
	var curls []string
	for _, b := range blocks {
		switch b.lang {
		case "js":
			jsBlocks = append(jsBlocks, b.body)
		case "json":
			jsonBlocks = append(jsonBlocks, b.body)
		case "sh":
			for _, l := range strings.Split(strings.ReplaceAll(b.body, "\\\n", " "), "\n") {
				switch {
				case strings.HasPrefix(l, "convfiles "):
					shLines = append(shLines, l)
				case strings.HasPrefix(l, "curl "):
					curls = append(curls, l)
				}
			}
		case "toml":
			if strings.Contains(b.body, "[limits]") { // the Configuration section's: every key
				checkReadmeConfig(t, b.body)
			}
		}
	}
	if len(jsBlocks) < 7 || len(shLines) < 8 || len(jsonBlocks) < 2 || len(curls) < 4 {
		t.Fatalf("README has %d js, %d command, %d curl and %d json examples", len(jsBlocks), len(shLines), len(curls), len(jsonBlocks))
	}

	quickstart := filepath.Join(dir, "quickstart.js")
	os.WriteFile(quickstart, []byte(jsBlocks[0]), 0o600)
	code, out, errs := c.run("", "run", "--conversation", "demo", quickstart)
	if code != 0 {
		t.Fatalf("quick start: exit %d: %s %s", code, out, errs)
	}
	assertSameJSON(t, "quick start report", out, jsonBlocks[0])
	checkQuickstartLinks(t, c, out, jsonBlocks[1], curls)

	// The PDF example works on an uploaded form: the one the tests fill.
	form := samples.Read(t, "form.pdf")
	if err := os.WriteFile(filepath.Join(c.dataDir, "files", "demo", "form.pdf"), form, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, src := range jsBlocks[1:] {
		code, out, errs := c.run(src, "run", "--conversation", "demo", "-")
		if code != 0 || strings.Contains(out, "undefined") {
			t.Errorf("js example %d: exit %d: %s %s", i+2, code, out, errs)
		}
	}
	folders := strings.NewReplacer("quickstart.js", quickstart,
		"./script-files", filepath.Join(dir, "script-files"), "./output", filepath.Join(dir, "output"))
	for _, line := range shLines {
		args := shellWords(folders.Replace(line))[1:]
		if code, out, errs := c.run("", args...); code != 0 {
			t.Errorf("%s: exit %d: %s %s", line, code, out, errs)
		}
	}
	for _, folder := range []string{"script-files", "output"} {
		if _, err := os.Stat(filepath.Join(dir, folder, "chart.png")); err != nil {
			t.Errorf("the README's run into ./%s wrote nothing there: %v", folder, err)
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
func checkQuickstartLinks(t *testing.T, c *cli, report, errorExample string, curls []string) {
	t.Helper()
	addr, stop := startServe(t, c.dataDir)
	defer stop()
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
	resp, err := http.Get(strings.Replace(rep.Result["chart"], "127.0.0.1:8080", addr, 1) + "?download=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="chart.png"`) {
		t.Errorf("?download=1: %q", resp.Header.Get("Content-Disposition"))
	}
	resp, err = http.Get("http://" + addr + "/files/demo/nope.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assertSameJSON(t, "error envelope", string(b), errorExample)
	fileID, imageID, sheetID := "", fileIDOf(t, addr, "demo", "chart.png"), fileIDOf(t, addr, "demo", "sales.csv")
	for _, line := range curls {
		out := runCurl(t, "http://"+addr, strings.NewReplacer("FILE_ID", fileID, "IMAGE_ID", imageID, "SHEET_ID", sheetID).Replace(line))
		if strings.HasSuffix(line, "/healthz") && !strings.Contains(string(out), `"sandbox":{"confinement":"rlimits`) {
			t.Errorf("/healthz does not describe the sandbox as the README says: %s", out)
		}
		if strings.HasSuffix(line, "/openapi.json'") {
			var doc struct {
				OpenAPI string
				Paths   map[string]any
			}
			if json.Unmarshal(out, &doc) != nil || doc.OpenAPI != "3.1.0" || doc.Paths["/api/files/{id}"] == nil {
				t.Errorf("/openapi.json is not the OpenAPI description: %.200s", out)
			}
		}
		if strings.HasSuffix(line, "/health") {
			var h struct {
				Status          string
				Uptime          float64
				ActiveProcesses *int64
				MemoryUsage     struct{ RSS, HeapTotal, HeapUsed uint64 }
			}
			if json.Unmarshal(out, &h) != nil || h.Status != "ok" || h.Uptime <= 0 || h.ActiveProcesses == nil || h.MemoryUsage.RSS == 0 || h.MemoryUsage.HeapUsed == 0 {
				t.Errorf("/health is not what the README says: %s", out)
			}
		}
		if strings.HasSuffix(line, `"language": "typescript"}'`) && strings.Contains(line, "/lint") && !strings.Contains(string(out), `"code":"no-unused-vars"`) {
			t.Errorf("/lint of an unused variable: %s", out)
		}
		if fileID == "" && strings.Contains(line, "/api/files/upload") {
			var up struct {
				Result struct{ Files []struct{ ID string } }
			}
			json.Unmarshal(out, &up)
			if len(up.Result.Files) == 0 {
				t.Fatalf("the README's upload answered %s", out)
			}
			fileID = up.Result.Files[0].ID
		}
	}
	if b, err := os.ReadFile(filepath.Join(c.dataDir, "files", "demo", "hi.txt")); err != nil || string(b) != "hello" {
		t.Errorf("the README's /execute example did not write hi.txt: %v %q", err, b)
	}
}

// fileIDOf finds the ID of a file through the REST API.
func fileIDOf(t *testing.T, addr, conv, name string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/conversations/" + conv + "/files?pattern=" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Result struct{ Files []struct{ ID string } }
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Result.Files) != 1 {
		t.Fatalf("%s in %s: %v %+v", name, conv, err, list)
	}
	return list.Result.Files[0].ID
}

// curlForm builds the multipart body of curl's -F options, in order:
// 'field=value', or 'file=@notes.txt[;filename=x]' (a small notes.txt).
func curlForm(t *testing.T, specs []string) (io.Reader, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, spec := range specs {
		field, rest, isFile := strings.Cut(spec, "=@")
		if !isFile {
			k, v, _ := strings.Cut(spec, "=")
			mw.WriteField(k, v)
			continue
		}
		path, opts, _ := strings.Cut(rest, ";")
		name := path
		if v, ok := strings.CutPrefix(opts, "filename="); ok {
			name = v
		}
		w, err := mw.CreateFormFile(field, name)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, "notes for %s\n", name)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// shellWords splits a command line as a POSIX shell would for the quoting
// the README uses: single quotes, double quotes with backslash escapes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
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

// readmeSection is the documentation's text from the heading start up
// to the heading end ("": to the end of start's page).
func readmeSection(t *testing.T, start, end string) string {
	t.Helper()
	return docs.Section(t, start, end)
}
