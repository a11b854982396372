package lua

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/docs"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// The tests of SABRE's tests/test_file_io.py (seed 003), ported case by
// case into JS and into Lua: the same files, data and assertions. A case
// convfiles answers differently on purpose says why in differs and
// asserts convfiles' answer; the README lists them.

// sabreCase is one test of test_file_io.py.
type sabreCase struct {
	name    string
	differs string
	run     func(t *testing.T, lang runtime.Language)
}

// sabreRun runs src in lang in conversation conv (none when ""), with
// read roots when given, and decodes its result into out.
func sabreRun(t *testing.T, lang runtime.Language, conv, src string, roots runtime.ReadRoots, out any) (*runtime.Report, error) {
	t.Helper()
	e := runtimetest.NewEnv(t, runtime.Config{ReadRoots: roots})
	req := runtime.Request{Source: src, Language: lang}
	if conv != "" {
		sp, err := e.Store.Space(conv)
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		req.Space = sp
	}
	rep, err := e.Runner.Run(context.Background(), req)
	if err == nil && out != nil {
		if jerr := json.Unmarshal(rep.Result, out); jerr != nil {
			t.Fatalf("result %s: %v", rep.Result, jerr)
		}
	}
	return rep, err
}

// pick is the script of lang.
func pick(lang runtime.Language, js, lua string) string {
	if lang == runtime.Lua {
		return lua
	}
	return js
}

// pngHeader is the test's "minimal PNG header".
var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01")

func sabreCases() []sabreCase {
	return []sabreCase{
		{name: "test_write_read_text_file", run: func(t *testing.T, lang runtime.Language) {
			var got struct{ URL, Type, Text string }
			_, err := sabreRun(t, lang, "test-conv-text-file", pick(lang,
				`const url = write_file("test.txt", "Hello, world!"); const content = read_file("test.txt"); ({url, type: content.type, text: content.get_str()})`,
				`local url = write_file("test.txt", "Hello, world!"); local content = read_file("test.txt"); return {url = url, type = content.type, text = content:get_str()}`), nil, &got)
			if err != nil || !strings.Contains(got.URL, "test-conv-text-file") || !strings.Contains(got.URL, "test.txt") || got.Type != "text" || got.Text != "Hello, world!" {
				t.Errorf("%v %+v", err, got)
			}
		}},
		{name: "test_write_read_json_file", run: func(t *testing.T, lang runtime.Language) {
			var got struct{ Type, Text string }
			_, err := sabreRun(t, lang, "test-conv-json", pick(lang,
				`const data = {name: "Alice", age: 30, city: "Brisbane"}; write_file("data.json", data); const content = read_file("data.json"); ({type: content.type, text: content.get_str()})`,
				`local data = {name = "Alice", age = 30, city = "Brisbane"}; write_file("data.json", data); local content = read_file("data.json"); return {type = content.type, text = content:get_str()}`), nil, &got)
			if err != nil || got.Type != "text" || !strings.Contains(got.Text, "Alice") || !strings.Contains(got.Text, "Brisbane") {
				t.Errorf("%v %+v", err, got)
			}
		}},
		{name: "test_write_read_image", run: func(t *testing.T, lang runtime.Language) {
			b64 := base64.StdEncoding.EncodeToString(pngHeader)
			var got struct {
				Type, Filename, ImageData string
				MIME                      string `json:"mime_type"`
			}
			// ImageContent(image_data=img_base64, mime_type="image/png"), as SABRE builds it.
			_, err := sabreRun(t, lang, "test-conv-image", pick(lang,
				`const img_content = {type: "image", image_data: "`+b64+`", mime_type: "image/png"}; write_file("test.png", img_content); const content = read_file("test.png"); ({type: content.type, mime_type: content.mime_type, filename: content.filename, imagedata: content.image_data})`,
				`local img_content = {type = "image", image_data = "`+b64+`", mime_type = "image/png"}; write_file("test.png", img_content); local content = read_file("test.png"); return {type = content.type, mime_type = content.mime_type, filename = content.filename, imagedata = content.image_data}`), nil, &got)
			if err != nil || got.Type != "image" || got.MIME != "image/png" || got.Filename != "test.png" || got.ImageData != b64 {
				t.Errorf("%v %+v", err, got)
			}
		}},
		{name: "test_security_no_path_traversal", run: func(t *testing.T, lang runtime.Language) {
			rep, err := sabreRun(t, lang, "test-conv-security", pick(lang, `write_file("../etc/passwd", "hacker")`, `write_file("../etc/passwd", "hacker")`), nil, nil)
			if err == nil || !strings.Contains(strings.ToLower(rep.Error.Message), "basename only") {
				t.Errorf("%v", err)
			}
		}},
		{name: "test_read_absolute_path",
			differs: "convfiles reads an absolute path only inside a folder of [runtime] read_roots, never anywhere on the host: the case passes as written with its temporary folder as a read root",
			run: func(t *testing.T, lang runtime.Language) {
				dir := t.TempDir()
				p := filepath.Join(dir, "abs.txt")
				os.WriteFile(p, []byte("Absolute path test content"), 0o600)
				rr, err := engine.OpenReadRoots([]string{dir})
				if err != nil {
					t.Fatal(err)
				}
				defer rr.Close()
				src := pick(lang, `const content = read_file(`+jsString(p)+`); ({type: content.type, text: content.get_str()})`,
					`local content = read_file(`+jsString(p)+`); return {type = content.type, text = content:get_str()}`)
				var got struct{ Type, Text string }
				if _, err := sabreRun(t, lang, "test-conv-absolute", src, rr, &got); err != nil || got.Type != "text" || got.Text != "Absolute path test content" {
					t.Errorf("with a read root: %v %+v", err, got)
				}
				if rep, err := sabreRun(t, lang, "test-conv-absolute", src, nil, nil); err == nil || !strings.Contains(rep.Error.Message, "read root") {
					t.Errorf("without one: %v", err)
				}
			}},
		{name: "test_write_file_no_context", run: func(t *testing.T, lang runtime.Language) {
			rep, err := sabreRun(t, lang, "", `write_file("test.txt", "This should fail")`, nil, nil)
			if err == nil || !strings.Contains(strings.ToLower(rep.Error.Message), "conversation context") {
				t.Errorf("%v", err)
			}
		}},
	}
}

func TestSABREFileIOSuite(t *testing.T) {
	for _, lang := range []runtime.Language{runtime.JavaScript, runtime.Lua} {
		for _, c := range sabreCases() {
			t.Run(string(lang)+"/"+c.name, func(t *testing.T) { c.run(t, lang) })
		}
	}
}

// TestSABRESuiteCountIsInTheReadme: the README says how many of SABRE's
// cases pass as written and lists the others.
func TestSABRESuiteCountIsInTheReadme(t *testing.T) {
	readme, err := []byte(docs.Text(t)), error(nil)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for _, c := range sabreCases() {
		if c.differs == "" {
			same++
		} else if !strings.Contains(string(readme), c.name) {
			t.Errorf("the README does not list %s: %s", c.name, c.differs)
		}
	}
	if want := strings.Join([]string{itoa(same), "of SABRE's", itoa(len(sabreCases()))}, " "); !strings.Contains(string(readme), want) {
		t.Errorf("the README does not say %q", want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
