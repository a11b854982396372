package routes

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestWorkspaceValidationRules covers every rule of seed 002's PUT /workspace.
func TestWorkspaceValidationRules(t *testing.T) {
	e := newCodeEnv(t, nil)
	tests := []struct {
		name   string
		body   any
		status int
		field  string
		reason string
	}{
		{"codeId missing", map[string]any{"code": "1"}, 400, "codeId", "codeId must be provided"},
		{"codeId null", map[string]any{"codeId": nil, "code": "1"}, 400, "codeId", "codeId must be provided"},
		{"codeId not a string", map[string]any{"codeId": 42, "code": "1"}, 400, "codeId", "codeId must be a string"},
		{"codeId empty", map[string]any{"codeId": "", "code": "1"}, 400, "codeId", "codeId must not be empty"},
		{"codeId too long", map[string]any{"codeId": strings.Repeat("a", 256), "code": "1"}, 400, "codeId", "must not exceed 255 characters"},
		{"codeId too long for its file", map[string]any{"codeId": strings.Repeat("a", 253), "code": "1"}, 400, "codeId", "a file name may have at most 255 bytes"},
		{"code white space only", map[string]any{"codeId": "a", "code": " \n\t"}, 400, "code", "white space only"},
		{"codeId with slash", map[string]any{"codeId": "../malicious", "code": "1"}, 400, "codeId", "codeId must not contain path separators"},
		{"codeId with backslash", map[string]any{"codeId": `a\b`, "code": "1"}, 400, "codeId", "codeId must not contain path separators"},
		{"codeId with dots", map[string]any{"codeId": "a..b", "code": "1"}, 400, "codeId", "parent directory references"},
		{"codeId hidden file", map[string]any{"codeId": ".bashrc", "code": "1"}, 400, "codeId", "only alphanumeric characters"},
		{"codeId with space", map[string]any{"codeId": "a b", "code": "1"}, 400, "codeId", "only alphanumeric characters"},
		{"codeId absolute", map[string]any{"codeId": "/etc/passwd", "code": "1"}, 400, "codeId", "path separators"},
		{"code missing", map[string]any{"codeId": "a"}, 400, "code", "code must be provided"},
		{"code not a string", map[string]any{"codeId": "a", "code": []int{1}}, 400, "code", "code must be a string"},
		{"code empty", map[string]any{"codeId": "a", "code": ""}, 400, "code", "code must not be empty"},
		{"not JSON", "{codeId:", 400, "", ""},
		{"JSON array", "[1]", 400, "", ""},
	}
	for _, tt := range tests {
		status, _, out := e.call("PUT", "/workspace", tt.body)
		typ, _, details := errOf(out)
		if status != tt.status || typ != "ValidationError" || out["success"] != false {
			t.Errorf("%s: %d %v", tt.name, status, out)
			continue
		}
		if tt.field != "" && (details["field"] != tt.field || !strings.Contains(fmt.Sprint(details["reason"]), tt.reason)) {
			t.Errorf("%s: details %v", tt.name, details)
		}
	}
	if entries, _ := os.ReadDir(e.workDir); len(entries) != 0 {
		t.Fatalf("refused saves left files: %v", entries)
	}
}

func TestWorkspaceSaveSizeBoundaryAndOverwrite(t *testing.T) {
	e := newCodeEnv(t, nil)
	exact := strings.Repeat("a", MaxCodeBytes)
	status, _, out := e.call("PUT", "/workspace", map[string]any{"codeId": "big", "code": exact})
	res, _ := out["result"].(map[string]any)
	if status != 200 || res["size"] != float64(MaxCodeBytes) || res["codeId"] != "big" || res["filePath"] != filepath.Join(e.workDir, "big.ts") {
		t.Fatalf("exactly 10 MiB: %d %v", status, res)
	}
	status, _, out = e.call("PUT", "/workspace", map[string]any{"codeId": "big", "code": exact + "a"})
	typ, msg, details := errOf(out)
	if status != 413 || typ != "ValidationError" || msg != "Code size exceeds maximum allowed size" ||
		details["maxSize"] != float64(MaxCodeBytes) || details["actualSize"] != float64(MaxCodeBytes+1) {
		t.Fatalf("10 MiB + 1: %d %v", status, out)
	}
	if fi, _ := os.Stat(filepath.Join(e.workDir, "big.ts")); fi.Size() != MaxCodeBytes {
		t.Fatalf("a refused save changed the file: %d bytes", fi.Size())
	}
	e.call("PUT", "/workspace", map[string]any{"codeId": "hello-world", "code": `console.log("one")`})
	status, _, out = e.call("PUT", "/workspace", map[string]any{"codeId": "hello-world", "code": `console.log("two, longer")`})
	if b, _ := os.ReadFile(filepath.Join(e.workDir, "hello-world.ts")); status != 200 || string(b) != `console.log("two, longer")` {
		t.Fatalf("overwrite: %d %q", status, b)
	}
	if !strings.Contains(e.logs.String(), `"msg":"workspace overwrite","codeId":"hello-world","oldSize":18,"newSize":26`) {
		t.Fatalf("overwrite not logged with sizes:\n%s", e.logs)
	}
	if !strings.Contains(e.logs.String(), `"msg":"workspace validation failed"`) {
		t.Fatalf("validation failure not logged:\n%s", e.logs)
	}
}

func TestWorkspaceFenceVariants(t *testing.T) {
	e := newCodeEnv(t, nil)
	for i, code := range []string{
		"```ts\nconst a: number = 1;\n```",
		"```typescript\nconst a: number = 1;\n```",
		"```js\nconst a: number = 1;\n```",
		"```javascript\nconst a: number = 1;\n```",
		"Here is the code:\n\n```ts\nconst a: number = 1;\n```\n\nIt declares a.",
		"```ts\r\nconst a: number = 1;\r\n```",
	} {
		id := fmt.Sprintf("fence%d", i)
		if status, _, out := e.call("PUT", "/workspace", map[string]any{"codeId": id, "code": code}); status != 200 {
			t.Fatalf("%q: %d %v", code, status, out)
		}
		b, _ := os.ReadFile(filepath.Join(e.workDir, id+".ts"))
		if strings.TrimRight(string(b), "\r\n") != "const a: number = 1;" {
			t.Errorf("%q saved as %q", code, b)
		}
	}
	e.call("PUT", "/workspace", map[string]any{"codeId": "plain", "code": "const b = 2;"})
	if b, _ := os.ReadFile(filepath.Join(e.workDir, "plain.ts")); string(b) != "const b = 2;" {
		t.Errorf("unfenced code changed: %q", b)
	}
}

// TestConcurrentSavesToOneCodeID: 20 PUTs at once leave exactly one whole
// version and no temporary file.
func TestConcurrentSavesToOneCodeID(t *testing.T) {
	e := newCodeEnv(t, nil)
	versions := map[string]bool{}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		code := fmt.Sprintf("// version %d\n%s", i, strings.Repeat(fmt.Sprintf("const v%d = %d;\n", i, i), 2000+i))
		versions[code] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status, _, out := e.call("PUT", "/workspace", map[string]any{"codeId": "race", "code": code}); status != 200 {
				t.Errorf("%d %v", status, out)
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(filepath.Join(e.workDir, "race.ts"))
	if !versions[string(b)] {
		t.Fatalf("the saved file is not one whole version (%d bytes)", len(b))
	}
	if entries, _ := os.ReadDir(e.workDir); len(entries) != 1 {
		t.Fatalf("stray files: %v", entries)
	}
}
