package runtime

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/internal/samples"
)

// The tests of seed 003 (SABRE's tests/test_file_io.py), as JS.

func TestSABREWriteReadTextFile(t *testing.T) {
	e := newEnv(t, Config{})
	var got struct{ URL, Type, Text string }
	e.ok("test-conv-1", `
const url = write_file("test.txt", "Hello, world!");
const c = read_file("test.txt");
({url, type: c.type, text: c.get_str()})`, &got)
	if !strings.Contains(got.URL, "test-conv-1") || !strings.Contains(got.URL, "test.txt") {
		t.Errorf("url %q", got.URL)
	}
	if got.Type != "text" || got.Text != "Hello, world!" {
		t.Errorf("read back %+v", got)
	}
}

func TestSABREWriteReadJSONFile(t *testing.T) {
	e := newEnv(t, Config{})
	var got struct{ Type, Text string }
	e.ok("test-conv-2", `
write_file("data.json", {name: "Alice", age: 30});
const c = read_file("data.json");
({type: c.type, text: c.get_str()})`, &got)
	if got.Type != "text" || got.Text != "{\n  \"name\": \"Alice\",\n  \"age\": 30\n}" {
		t.Errorf("read back %+v", got)
	}
}

func TestSABREWriteReadImage(t *testing.T) {
	png := samples.Read(t, "sample.png")
	e := newEnv(t, Config{})
	var got struct {
		Type   string
		MIME   string `json:"mime_type"`
		Width  int
		Height int
		Same   bool
	}
	e.ok("test-conv-3", `
const img = {type: "image", mime_type: "image/png", data: "`+base64.StdEncoding.EncodeToString(png)+`"};
write_file("test.png", img);
const c = read_file("test.png");
({type: c.type, mime_type: c.mime_type, width: c.width, height: c.height, same: c.data === img.data})`, &got)
	if got.Type != "image" || got.MIME != "image/png" || got.Width != 64 || got.Height != 48 || !got.Same {
		t.Errorf("read back %+v", got)
	}
}

func TestSABRESecurityNoPathTraversal(t *testing.T) {
	e := newEnv(t, Config{})
	var got struct{ Name, Message string }
	e.ok("test-conv-4", `
try { write_file("../etc/passwd", "hacker"); ({name: "none"}) }
catch (e) { ({name: e.name, message: e.message}) }`, &got)
	if got.Name != "ValidationError" || !strings.Contains(got.Message, `".." components are not allowed`) {
		t.Errorf("got %+v", got)
	}
}

// TestSABREReadAbsolutePath keeps SABRE's use case (read a file by absolute
// path) and closes its hole: only inside a configured read root.
func TestSABREReadAbsolutePath(t *testing.T) {
	allowed := t.TempDir()
	p := filepath.Join(allowed, "abs.txt")
	os.WriteFile(p, []byte("Absolute path test"), 0o600)
	rr, err := files.OpenReadRoots([]string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()

	var got string
	newEnv(t, Config{ReadRoots: rr}).ok("test-conv-5", `read_file(`+jsString(p)+`).get_str()`, &got)
	if got != "Absolute path test" {
		t.Errorf("got %q", got)
	}
	var refused struct{ Name, Message string }
	newEnv(t, Config{}).ok("test-conv-5", `
try { read_file(`+jsString(p)+`); ({}) } catch (e) { ({name: e.name, message: e.message}) }`, &refused)
	if refused.Name != "PermissionError" || !strings.Contains(refused.Message, "read root") {
		t.Errorf("without a read root: %+v", refused)
	}
}

func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
