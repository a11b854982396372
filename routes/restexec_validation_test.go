package routes

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// savedAs asserts a PUT /workspace of code succeeds and saves want.
func savedAs(codeID, code, want string) func(t *testing.T, e *codeEnv) {
	return func(t *testing.T, e *codeEnv) {
		status, _, out := e.call("PUT", "/workspace", map[string]any{"codeId": codeID, "code": code})
		b, err := os.ReadFile(filepath.Join(e.workDir, codeID+".ts"))
		if status != 200 || out["success"] != true || err != nil || string(b) != want {
			t.Errorf("%d %v: saved %q, want %q", status, out, b, want)
		}
	}
}

// saveRefused asserts a PUT /workspace of body is a 400 ValidationError
// with message msg.
func saveRefused(msg string, body any) func(t *testing.T, e *codeEnv) {
	return func(t *testing.T, e *codeEnv) {
		status, _, out := e.call("PUT", "/workspace", body)
		typ, got, _ := errOf(out)
		if status != 400 || out["success"] != false || typ != "ValidationError" || got != msg {
			t.Errorf("got %d %v, want 400 %q", status, out, msg)
		}
	}
}

// workspaceCases are restexec's tests/integration/workspace.test.ts.
func workspaceCases() []portedCase {
	const md = "```typescript\n%s\n```"
	multiline := "interface User {\n  name: string;\n  age: number;\n}\n\nconst user: User = {\n  name: \"Alice\",\n  age: 30\n};\n\nconsole.log(JSON.stringify(user));"
	return []portedCase{
		{name: "Workspace - PUT /workspace saves TypeScript code successfully", run: func(t *testing.T, e *codeEnv) {
			code := "const message = \"Hello, World!\";\nconsole.log(JSON.stringify({ message }));"
			status, _, out := e.call("PUT", "/workspace", map[string]any{"codeId": "test-save-basic", "code": code})
			res, _ := out["result"].(map[string]any)
			b, _ := os.ReadFile(filepath.Join(e.workDir, "test-save-basic.ts"))
			if status != 200 || out["success"] != true || res["codeId"] != "test-save-basic" || res["filePath"] != filepath.Join(e.workDir, "test-save-basic.ts") || res["size"] == nil || string(b) != code {
				t.Errorf("%d %v %q", status, out, b)
			}
		}},
		{name: "Workspace - PUT /workspace with missing codeId returns 400", run: saveRefused("codeId is required", map[string]any{"code": `console.log("test");`})},
		{name: "Workspace - PUT /workspace with missing code returns 400", run: saveRefused("code is required", map[string]any{"codeId": "test-code"})},
		{name: "Workspace - PUT /workspace with empty code returns 400", run: saveRefused("code must not be empty", map[string]any{"codeId": "test-code", "code": "   "})},
		{name: "Workspace - PUT /workspace with path traversal in codeId returns 400", run: saveRefused("codeId must not contain path separators or parent directory references", map[string]any{"codeId": "../etc/passwd", "code": `console.log("test");`})},
		{name: "Workspace - PUT /workspace with invalid codeId characters returns 400", run: saveRefused("codeId must contain only alphanumeric characters, hyphens, and underscores", map[string]any{"codeId": "test@code!", "code": `console.log("test");`})},
		{name: "Workspace - PUT /workspace with long codeId returns 400", run: saveRefused("codeId must not exceed 255 characters", map[string]any{"codeId": strings.Repeat("a", 256), "code": `console.log("test");`})},
		{name: "Workspace - PUT /workspace with code exceeding size limit returns 400",
			differs: "convfiles answers 413 Payload Too Large, as seed 002 specifies, with the same ValidationError and message",
			run: func(t *testing.T, e *codeEnv) {
				status, _, out := e.call("PUT", "/workspace", map[string]any{"codeId": "test-large", "code": strings.Repeat("a", 10*1024*1024+1)})
				typ, msg, _ := errOf(out)
				if status != 413 || out["success"] != false || typ != "ValidationError" || msg != "Code size exceeds maximum allowed size" {
					t.Errorf("%d %v", status, out)
				}
			}},
		{name: "Workspace - PUT /workspace overwrites existing file", run: func(t *testing.T, e *codeEnv) {
			s1, _, _ := e.call("PUT", "/workspace", map[string]any{"codeId": "test-overwrite", "code": `console.log("first version");`})
			s2, _, _ := e.call("PUT", "/workspace", map[string]any{"codeId": "test-overwrite", "code": `console.log("second version");`})
			b, _ := os.ReadFile(filepath.Join(e.workDir, "test-overwrite.ts"))
			if s1 != 200 || s2 != 200 || string(b) != `console.log("second version");` {
				t.Errorf("%d %d %q", s1, s2, b)
			}
		}},
		{name: "Workspace - PUT /workspace with non-JSON body returns 400", run: saveRefused("Invalid JSON in request body", "not json")},
		{name: "Workspace - PUT /workspace extracts code from ```typescript block", run: savedAs("test-markdown-typescript", fmt.Sprintf(md, `console.log(JSON.stringify({ message: "Hello from markdown" }));`), `console.log(JSON.stringify({ message: "Hello from markdown" }));`)},
		{name: "Workspace - PUT /workspace extracts code from ```ts block", run: savedAs("test-markdown-ts", "```ts\nconst x = 42;\nconsole.log(JSON.stringify({ x }));\n```", "const x = 42;\nconsole.log(JSON.stringify({ x }));")},
		{name: "Workspace - PUT /workspace handles multiline markdown code", run: savedAs("test-markdown-multiline", fmt.Sprintf(md, multiline), multiline)},
		{name: "Workspace - PUT /workspace handles markdown with leading/trailing whitespace", run: savedAs("test-markdown-whitespace", "  ```typescript\nconsole.log(\"test\");\n```  ", `console.log("test");`)},
		{name: "Workspace - PUT /workspace preserves plain code when not markdown", run: savedAs("test-plain-preserved", "const message = \"Not markdown\";\nconsole.log(message);", "const message = \"Not markdown\";\nconsole.log(message);")},
	}
}

// validationCases are restexec's tests/unit/validation.test.ts: each
// body its validator took, sent to POST /execute.
func validationCases() []portedCase {
	envOf := func(n int, key func(i int) string, value string) map[string]any {
		env := map[string]any{}
		for i := 0; i < n; i++ {
			env[key(i)] = value
		}
		return env
	}
	keyN := func(i int) string { return fmt.Sprintf("KEY_%d", i) }
	key2 := func(i int) string { return fmt.Sprintf("KEY_%02d", i) }
	id := func(extra map[string]any) map[string]any {
		body := map[string]any{"codeId": "test-code"}
		for k, v := range extra {
			body[k] = v
		}
		return body
	}
	return []portedCase{
		{name: "Validation - should pass with valid codeId and timeout", run: passes(id(map[string]any{"timeout": 5000}))},
		{name: "Validation - should pass with valid codeId and no timeout", run: passes(id(nil))},
		{name: "Validation - should accept codeId with hyphens", run: passes(map[string]any{"codeId": "test-code-with-hyphens", "timeout": 5000})},
		{name: "Validation - should accept codeId with underscores", run: passes(map[string]any{"codeId": "test_code_with_underscores", "timeout": 5000})},
		{name: "Validation - should reject missing codeId", run: rejects("codeId is required", map[string]any{"timeout": 5000})},
		{name: "Validation - should reject empty codeId", run: rejects("codeId is required", map[string]any{"codeId": "", "timeout": 5000})},
		{name: "Validation - should reject codeId with whitespace only", run: rejects("codeId must be a non-empty string", map[string]any{"codeId": "   ", "timeout": 5000})},
		{name: "Validation - should reject codeId with forward slash", run: rejects("codeId must not contain path separators or parent directory references", map[string]any{"codeId": "test/code", "timeout": 5000})},
		{name: "Validation - should reject codeId with backslash", run: rejects("codeId must not contain path separators or parent directory references", map[string]any{"codeId": `test\code`, "timeout": 5000})},
		{name: "Validation - should reject codeId with parent directory reference", run: rejects("codeId must not contain path separators or parent directory references", map[string]any{"codeId": "../etc/passwd", "timeout": 5000})},
		{name: "Validation - should reject codeId with special characters", run: rejects("codeId must contain only alphanumeric characters, hyphens, and underscores", map[string]any{"codeId": "test@code", "timeout": 5000})},
		{name: "Validation - should reject non-integer timeout", run: rejects("timeout must be an integer", id(map[string]any{"timeout": 5000.5}))},
		{name: "Validation - should reject negative timeout", run: rejects("timeout must be between 1 and", id(map[string]any{"timeout": -1000}))},
		{name: "Validation - should reject zero timeout", run: rejects("timeout must be between 1 and", id(map[string]any{"timeout": 0}))},
		{name: "Validation - should reject timeout exceeding max", run: rejects("timeout must be between 1 and", id(map[string]any{"timeout": 999999}))},
		{name: "Validation - should reject invalid JSON", run: rejects("Invalid JSON in request body", `{"codeId": `)},
		{name: "Validation - should reject non-string codeId", run: rejects("codeId must be a non-empty string", map[string]any{"codeId": 12345, "timeout": 5000})},
		{name: "Validation - should reject non-number timeout", run: rejects("timeout must be an integer", id(map[string]any{"timeout": "5000"}))},
		{name: "Validation - should pass with valid env object", run: passes(id(map[string]any{"timeout": 5000, "env": map[string]any{"API_KEY": "test-key", "DEBUG_MODE": "true"}}))},
		{name: "Validation - should pass with empty env object", run: passes(id(map[string]any{"timeout": 5000, "env": map[string]any{}}))},
		{name: "Validation - should pass without env field", run: passes(id(map[string]any{"timeout": 5000}))},
		{name: "Validation - should reject env with invalid key format (lowercase)", run: rejects("env keys must contain only uppercase letters, numbers, and underscores", id(map[string]any{"env": map[string]any{"api_key": "value"}}))},
		{name: "Validation - should reject env with invalid key format (hyphen)", run: rejects("env keys must contain only uppercase letters, numbers, and underscores", id(map[string]any{"env": map[string]any{"API-KEY": "value"}}))},
		{name: "Validation - should reject env with forbidden key (PATH)", run: rejects(`env key "PATH" is forbidden`, id(map[string]any{"env": map[string]any{"PATH": "/usr/bin"}}))},
		{name: "Validation - should reject env with forbidden key (HOME)", run: rejects(`env key "HOME" is forbidden`, id(map[string]any{"env": map[string]any{"HOME": "/home/user"}}))},
		{name: "Validation - should reject env with DENO_ prefix", run: rejects(`env key "DENO_DIR" is forbidden`, id(map[string]any{"env": map[string]any{"DENO_DIR": "/tmp"}}))},
		{name: "Validation - should reject env with DENO_ prefix (custom)", run: rejects(`env key "DENO_CUSTOM" is forbidden`, id(map[string]any{"env": map[string]any{"DENO_CUSTOM": "value"}}))},
		{name: "Validation - should reject env exceeding max count", run: rejects("env must not exceed 50 entries", id(map[string]any{"env": envOf(51, keyN, "value")}))},
		{name: "Validation - should reject env with non-string value", run: rejects("env values must be strings", id(map[string]any{"env": map[string]any{"API_KEY": 12345}}))},
		{name: "Validation - should reject env value exceeding max length", run: rejects(`env value for "API_KEY" exceeds maximum length`, id(map[string]any{"env": map[string]any{"API_KEY": strings.Repeat("x", 1001)}}))},
		{name: "Validation - should reject env exceeding total size", run: rejects("env total size exceeds maximum allowed size", id(map[string]any{"env": envOf(50, keyN, strings.Repeat("x", 300))}))},
		{name: "Validation - should reject env that is an array", run: rejects("env must be an object", id(map[string]any{"env": []string{"API_KEY", "value"}}))},
		{name: "Validation - should reject env that is a string", run: rejects("env must be an object", id(map[string]any{"env": "invalid"}))},
		{name: "Validation - should pass with exactly 50 env variables", run: passes(id(map[string]any{"env": envOf(50, keyN, "value")}))},
		{name: "Validation - should pass with env value exactly 1000 characters", run: passes(id(map[string]any{"env": map[string]any{"API_KEY": strings.Repeat("x", 1000)}}))},
		{name: "Validation - should pass with env total size exactly 10KB", run: passes(id(map[string]any{"env": envOf(50, key2, strings.Repeat("x", 198))}))},
		{name: "Validation - should pass with empty string value", run: passes(id(map[string]any{"env": map[string]any{"API_KEY": ""}}))},
		{name: "Validation - should pass with Unicode characters in value", run: passes(id(map[string]any{"env": map[string]any{"MESSAGE": "こんにちは世界", "EMOJI": "🚀🎉💻", "MIXED": "Hello こんにちは 🌍"}}))},
	}
}

// codeExtractorCases are restexec's tests/unit/codeExtractor.test.ts:
// extractTypeScriptCode is convfiles' extractFence, and
// isMarkdownCodeBlock whether it extracts anything.
func codeExtractorCases() []portedCase {
	extracts := func(input, want string) func(t *testing.T, e *codeEnv) {
		return func(t *testing.T, _ *codeEnv) {
			if got := extractFence(input); got != want {
				t.Errorf("extractFence(%q) = %q, want %q", input, got, want)
			}
		}
	}
	isBlock := func(input string, want bool) func(t *testing.T, e *codeEnv) {
		return func(t *testing.T, _ *codeEnv) {
			if got := extractFence(input) != input; got != want {
				t.Errorf("%q is a code block: %v, want %v", input, got, want)
			}
		}
	}
	const hello = `console.log("Hello, World!");`
	multi := "const message = \"Hello\";\nconst greeting = `${message}, World!`;\nconsole.log(greeting);"
	indented := "function greet(name: string): void {\n  console.log(`Hello, ${name}!`);\n}\n\ngreet(\"World\");"
	empty := "const a = 1;\n\nconst b = 2;"
	complexTS := "interface User {\n  name: string;\n  age: number;\n}\n\nconst user: User = {\n  name: \"Alice\",\n  age: 30\n};\n\nconsole.log(JSON.stringify(user));"
	const jsDiffers = "convfiles also takes code out of ```js and ```javascript blocks (it runs JavaScript as well as TypeScript); restexec leaves them as they are"
	return []portedCase{
		{name: "extractTypeScriptCode - returns plain code as-is", run: extracts(hello, hello)},
		{name: "extractTypeScriptCode - extracts code from ```typescript block", run: extracts("```typescript\n"+hello+"\n```", hello)},
		{name: "extractTypeScriptCode - extracts code from ```ts block", run: extracts("```ts\n"+hello+"\n```", hello)},
		{name: "extractTypeScriptCode - handles multiline code in markdown block", run: extracts("```typescript\n"+multi+"\n```", multi)},
		{name: "extractTypeScriptCode - handles code with leading/trailing whitespace in markdown", run: extracts("  ```typescript\nconsole.log(\"test\");\n```  ", `console.log("test");`)},
		{name: "extractTypeScriptCode - handles code with indentation", run: extracts("```typescript\n"+indented+"\n```", indented)},
		{name: "extractTypeScriptCode - preserves empty lines in code", run: extracts("```typescript\n"+empty+"\n```", empty)},
		{name: "extractTypeScriptCode - handles complex TypeScript with types and interfaces", run: extracts("```typescript\n"+complexTS+"\n```", complexTS)},
		{name: "extractTypeScriptCode - does not extract from other language blocks", differs: jsDiffers, run: extracts("```javascript\nconsole.log(\"hello\");\n```", `console.log("hello");`)},
		{name: "extractTypeScriptCode - handles markdown with extra whitespace after language tag", run: extracts("```typescript  \nconsole.log(\"test\");\n```", `console.log("test");`)},
		{name: "isMarkdownCodeBlock - returns true for typescript block", run: isBlock("```typescript\nconsole.log(\"test\");\n```", true)},
		{name: "isMarkdownCodeBlock - returns true for ts block", run: isBlock("```ts\nconsole.log(\"test\");\n```", true)},
		{name: "isMarkdownCodeBlock - returns false for plain code", run: isBlock(`console.log("test");`, false)},
		{name: "isMarkdownCodeBlock - returns false for other language blocks", differs: jsDiffers, run: isBlock("```javascript\nconsole.log(\"test\");\n```", true)},
		{name: "isMarkdownCodeBlock - returns false for incomplete markdown", run: isBlock("```typescript\nconsole.log(\"test\");", false)},
	}
}
