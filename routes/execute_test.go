package routes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExecuteSavedCode(t *testing.T) {
	e := newCodeEnv(t, nil)
	e.call("PUT", "/workspace", map[string]any{"codeId": "hello-world", "code": "const message: string = \"Hello, World!\";\nconsole.log(JSON.stringify({ message }));"})
	status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "hello-world", "timeout": 5000})
	if status != 200 || out["success"] != true || fmt.Sprint(out["logs"]) != `[{"message":"Hello, World!"}]` {
		t.Fatalf("%d %v", status, out)
	}
	// It returns nothing and prints JSON: that is its result (seed 002).
	if _, ok := out["executionTime"].(float64); !ok || fmt.Sprint(out["result"]) != "map[message:Hello, World!]" || out["files_touched"] == nil {
		t.Fatalf("envelope %v", out)
	}
}

func TestExecuteErrors(t *testing.T) {
	e := newCodeEnv(t, nil)
	e.call("PUT", "/workspace", map[string]any{"codeId": "syntax", "code": "const a = 1;\nconst = ;\n"})
	e.call("PUT", "/workspace", map[string]any{"codeId": "throws", "code": "interface Order { id: number }\nconst orders: Order[] = [{ id: 1 }];\n\nfunction check(o: Order): void {\n  if (o.id > 0) throw new Error(\"order \" + o.id + \" rejected\");\n}\norders.forEach(check);\n"})
	e.call("PUT", "/workspace", map[string]any{"codeId": "spin", "code": "while (true) {}"})

	status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "syntax"})
	typ, _, d := errOf(out)
	if status != 500 || typ != "ExecutionError" || d["kind"] != "SyntaxError" || d["line"] != float64(2) {
		t.Errorf("syntax error: %d %v", status, out)
	}
	status, _, out = e.call("POST", "/execute", map[string]any{"codeId": "throws"})
	typ, msg, d := errOf(out)
	if status != 500 || typ != "ExecutionError" || !strings.Contains(msg, "order 1 rejected") || !strings.Contains(fmt.Sprint(d["stack"]), "throws.ts:5:") {
		t.Errorf("runtime error must name TypeScript line 5: %d %v", status, out)
	}
	start := time.Now()
	status, _, out = e.call("POST", "/execute", map[string]any{"codeId": "spin", "timeout": 300})
	took := time.Since(start)
	typ, msg, d = errOf(out)
	if status != 408 || typ != "TimeoutError" || msg != "Code execution timed out after 300ms" || !strings.Contains(fmt.Sprint(d["reason"]), "timeout of 300ms") {
		t.Errorf("timeout: %d %v", status, out)
	}
	t.Logf("a 300 ms timeout was answered after %v", took) // measured in BENCHMARKS.md, not asserted
	status, _, out = e.call("POST", "/execute", map[string]any{"codeId": "never-saved"})
	if typ, msg, _ := errOf(out); status != 404 || typ != "FileNotFoundError" || msg != "Code file not found: never-saved" {
		t.Errorf("missing codeId: %d %v", status, out)
	}
}

func TestExecuteValidation(t *testing.T) {
	e := newCodeEnv(t, nil)
	bigEnv := map[string]any{}
	for i := 0; i < 51; i++ {
		bigEnv[fmt.Sprintf("K%d", i)] = "v"
	}
	wideEnv := map[string]any{}
	for i := 0; i < 11; i++ {
		wideEnv[fmt.Sprintf("K%d", i)] = strings.Repeat("v", 1000)
	}
	tests := []struct {
		name   string
		body   map[string]any
		reason string
	}{
		{"neither", map[string]any{}, "give the codeId of saved code"},
		{"both", map[string]any{"codeId": "a", "code": "1"}, "exclusive"},
		{"bad codeId", map[string]any{"codeId": "../x"}, "path separators"},
		{"timeout zero", map[string]any{"code": "1", "timeout": 0}, "between 1 and 300000"},
		{"timeout too big", map[string]any{"code": "1", "timeout": 300001}, "between 1 and 300000"},
		{"timeout fraction", map[string]any{"code": "1", "timeout": 1.5}, "whole number"},
		{"timeout string", map[string]any{"code": "1", "timeout": "5s"}, "whole number"},
		{"language", map[string]any{"code": "1", "language": "python"}, "typescript"},
		{"env not object", map[string]any{"code": "1", "env": []string{"A"}}, "object"},
		{"env lower case", map[string]any{"code": "1", "env": map[string]any{"api_key": "x"}}, "upper-case"},
		{"env reserved", map[string]any{"code": "1", "env": map[string]any{"PATH": "/bin"}}, "reserved"},
		{"env reserved prefix", map[string]any{"code": "1", "env": map[string]any{"CONVFILES_X": "1"}}, "reserved"},
		{"env value type", map[string]any{"code": "1", "env": map[string]any{"N": 1}}, "strings"},
		{"env value long", map[string]any{"code": "1", "env": map[string]any{"V": strings.Repeat("x", 1001)}}, "1000 characters"},
		{"env entries", map[string]any{"code": "1", "env": bigEnv}, "50 entries"},
		{"env total", map[string]any{"code": "1", "env": wideEnv}, "bytes in all"},
		{"conversation", map[string]any{"code": "1", "conversationId": "../c"}, ""},
		{"white space only", map[string]any{"code": " \n\t "}, "code must not be empty"},
		{"codeId too long for its file", map[string]any{"codeId": strings.Repeat("c", 253)}, "must not exceed 252 characters"},
	}
	for _, tt := range tests {
		status, _, out := e.call("POST", "/execute", tt.body)
		typ, msg, d := errOf(out)
		if status != 400 || typ != "ValidationError" || !strings.Contains(fmt.Sprint(d["reason"])+msg, tt.reason) {
			t.Errorf("%s: %d %v", tt.name, status, out)
		}
	}
	status, _, out := e.call("POST", "/execute", map[string]any{"code": "[process.env.API_BASE, typeof process.env.OTHER]", "env": map[string]any{"API_BASE": "https://api.test"}, "language": "js"})
	if status != 200 || fmt.Sprint(out["result"]) != "[https://api.test undefined]" {
		t.Errorf("env visible as process.env: %d %v", status, out)
	}
}

func TestExecuteFilesGoWhereTheRequestSays(t *testing.T) {
	e := newCodeEnv(t, nil)
	e.call("POST", "/execute", map[string]any{"code": `write_file("conv.txt", "c")`, "conversationId": "conv-1"})
	e.call("POST", "/execute", map[string]any{"code": `io.open("io.txt", "w").write("i").close()`})
	if _, err := os.Stat(filepath.Join(e.store.Dir(), "conv-1", "conv.txt")); err != nil {
		t.Errorf("conversation run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.ioDir, "io.txt")); err != nil {
		t.Errorf("run without a conversation did not use the io folder: %v", err)
	}
	off := newCodeEnv(t, func(c *Config) { c.ScriptFiles = false })
	// Seeds 000 and 001: with file access off, file and io are absent.
	_, _, out := off.call("POST", "/execute", map[string]any{"code": `try { file.save("x.txt", "x"); "saved" } catch (e) { e.name + " " + typeof io }`, "conversationId": "c"})
	if out["result"] != "ReferenceError undefined" {
		t.Errorf("file access off: %v", out)
	}
}

// TestLintRoute: /lint answers convfiles' verdict and deno lint's shape
// (seed 002): clean code has no diagnostics; ESLint's rules are warnings
// with ranges (0-based columns) in the code's own lines; a syntax error
// makes the code invalid and is listed under errors too.
func TestLintRoute(t *testing.T) {
	e := newCodeEnv(t, nil)
	e.call("PUT", "/workspace", map[string]any{"codeId": "ok", "code": "const a: number = 1;\nconsole.log(a);\n"})
	_, _, out := e.call("POST", "/lint", map[string]any{"codeId": "ok"})
	res, _ := out["result"].(map[string]any)
	if _, timed := out["executionTime"].(float64); !timed || res["valid"] != true || res["version"] != 1.0 ||
		fmt.Sprint(res["diagnostics"], res["errors"], res["checkedFiles"]) != "[] [] ["+filepath.Join(e.workDir, "ok.ts")+"]" {
		t.Errorf("clean: %v", out)
	}
	e.call("PUT", "/workspace", map[string]any{"codeId": "issues", "code": "const unusedVariable = 123;\n\nfunction test() {\n  var oldStyleVar = \"bad\";\n  return;\n  console.log(\"test\", missing);\n}\n"})
	_, _, out = e.call("POST", "/lint", map[string]any{"codeId": "issues"})
	res, _ = out["result"].(map[string]any)
	var got []string
	for _, d := range res["diagnostics"].([]any) {
		m := d.(map[string]any)
		r := m["range"].(map[string]any)["start"].(map[string]any)
		got = append(got, fmt.Sprintf("%v@%v:%v/%v:%v", m["code"], m["line"], m["column"], r["line"], r["col"]))
	}
	want := "no-unused-vars@1:7/1:6 no-unused-vars@3:10/3:9 no-var@4:3/4:2 no-unused-vars@4:7/4:6 no-unreachable@6:3/6:2 no-undef@6:23/6:22"
	if res["valid"] != true || strings.Join(got, " ") != want || len(res["errors"].([]any)) != 0 {
		t.Errorf("issues: %s\nwant    %s\n%v", strings.Join(got, " "), want, out)
	}
	status, _, out := e.call("POST", "/lint", map[string]any{"code": "let x = ;\n", "language": "javascript"})
	res, _ = out["result"].(map[string]any)
	diags, _ := res["diagnostics"].([]any)
	errs, _ := res["errors"].([]any)
	if status != 200 || res["valid"] != false || len(diags) == 0 || !strings.Contains(fmt.Sprint(diags[0]), "line:1") || len(errs) != len(diags) {
		t.Errorf("broken: %d %v", status, out)
	}
}

func TestRateLimits(t *testing.T) {
	e := newCodeEnv(t, func(c *Config) { c.RateLimits = RateLimits{PerClient: 5, PerCodeID: 2, Global: 100} })
	codes := []int{}
	for i := 0; i < 3; i++ {
		status, hdr, out := e.call("PUT", "/workspace", map[string]any{"codeId": "same", "code": "1"})
		codes = append(codes, status)
		if status == 429 && (hdr.Get("Retry-After") == "" || fmt.Sprint(out["error"]) == "") {
			t.Errorf("429 without Retry-After: %v %v", hdr, out)
		}
	}
	if fmt.Sprint(codes) != "[200 200 429]" {
		t.Errorf("per-codeId limit of 2: %v", codes)
	}
	codes = codes[:0]
	for i := 0; i < 3; i++ {
		status, _, _ := e.call("POST", "/execute", map[string]any{"code": "1"})
		codes = append(codes, status)
	}
	if fmt.Sprint(codes) != "[200 200 429]" {
		t.Errorf("per-client limit of 5 (3 used by saves): %v", codes)
	}
}

func TestGlobalRateLimitAndOversizedBody(t *testing.T) {
	e := newCodeEnv(t, func(c *Config) { c.RateLimits = RateLimits{Global: 2} })
	var codes []int
	for i := 0; i < 3; i++ {
		status, hdr, out := e.call("POST", "/lint", map[string]any{"code": "1"})
		codes = append(codes, status)
		if typ, _, _ := errOf(out); status == 429 && (typ != "RateLimitError" || hdr.Get("Retry-After") == "") {
			t.Errorf("429: %v %v", hdr, out)
		}
	}
	if fmt.Sprint(codes) != "[200 200 429]" {
		t.Errorf("global limit of 2: %v", codes)
	}

	big := newCodeEnv(t, nil)
	body := append([]byte(`{"codeId":"x","code":"`), bytes.Repeat([]byte("a"), maxBody)...)
	body = append(body, `"}`...)
	status, _, out := big.call("PUT", "/workspace", body)
	typ, msg, d := errOf(out)
	if status != 413 || typ != "ValidationError" || msg != "Request body exceeds maximum allowed size" || d["maxSize"] != float64(maxBody) {
		t.Errorf("a body over %d bytes: %d %v", maxBody, status, out)
	}
	if entries, _ := os.ReadDir(big.workDir); len(entries) != 0 {
		t.Errorf("an oversized body left files: %v", entries)
	}
}

// TestExecuteAndLintLua: /execute runs Lua when the request says so, with
// the same envelope, files and errors as JavaScript; /lint takes Luau and
// names the line of a syntax error.
func TestExecuteAndLintLua(t *testing.T) {
	e := newCodeEnv(t, nil)
	status, _, out := e.call("POST", "/execute", map[string]any{"language": "lua", "conversationId": "lua-1",
		"code": "local f = io.open('out.txt', 'w')\nf:write('from lua')\nf:close()\nprint('wrote')\nreturn { ok = true, url = write_file('b.txt', 'b') }"})
	res, _ := out["result"].(map[string]any)
	if status != 200 || res["ok"] != true || fmt.Sprint(out["logs"]) != "[wrote]" || !strings.Contains(fmt.Sprint(out["files_touched"]), "out.txt") {
		t.Fatalf("lua run: %d %v", status, out)
	}
	status, _, out = e.call("POST", "/execute", map[string]any{"language": "lua", "code": "error('boom')"})
	if typ, msg, _ := errOf(out); status != 500 || typ != "ExecutionError" || !strings.Contains(msg, "boom") || !strings.Contains(msg, "inline.lua:1:") {
		t.Fatalf("lua error: %d %v", status, out)
	}
	_, _, out = e.call("POST", "/lint", map[string]any{"code": "local n = 0\nn += 1\n", "language": "luau"})
	if res, _ = out["result"].(map[string]any); res["valid"] != true {
		t.Fatalf("Luau lint: %v", out)
	}
	_, _, out = e.call("POST", "/lint", map[string]any{"code": "local n = 0\nn += = 1\n", "language": "luau"})
	res, _ = out["result"].(map[string]any)
	if res["valid"] != false || !strings.Contains(fmt.Sprint(res["diagnostics"]), "line:2") {
		t.Fatalf("lua lint: %v", out)
	}
}

// TestExecutePrintedTextIsTheResult: a script that prints text, or
// nothing, and leaves no value answers what the Workspace Execute API
// answers: {success, result} with the output, trimmed, or null; a value
// or a printed JSON line stays the result.
func TestExecutePrintedTextIsTheResult(t *testing.T) {
	e := newCodeEnv(t, nil)
	for _, tc := range []struct{ code, want string }{
		{`console.log("hello"); console.log("world")`, `{"result":"hello\nworld","success":true}`},
		{`const x = 1;`, `{"result":null,"success":true}`},
		{`console.log(JSON.stringify({n: 1}))`, `{"n":1}`},
		{`console.log("hello"); 42`, `42`},
	} {
		status, _, out := e.call("POST", "/execute", map[string]any{"code": tc.code})
		got, _ := json.Marshal(out["result"])
		if status != 200 || string(got) != tc.want {
			t.Errorf("%s: %d %s, want %s", tc.code, status, got, tc.want)
		}
	}
}
