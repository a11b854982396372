package routes

import (
	"strings"
	"testing"
	"time"
)

// httpCases are restexec's tests/integration/http.test.ts.
func httpCases() []portedCase {
	cases := []portedCase{
		{name: "HTTP - GET /health returns 200 with health info", run: func(t *testing.T, e *codeEnv) {
			h := getHealth(t, e)
			if h.Status != "ok" || h.Uptime == nil || h.ActiveProcesses == nil || h.MemoryUsage == nil || h.Version == nil {
				t.Errorf("health %+v", h)
			}
		}},
	}
	cases = append(cases, codeRequestCases("HTTP", "/execute")...)
	cases = append(cases, []portedCase{
		{name: "HTTP - POST /execute with valid request returns 200", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "test-code", "\n      console.log(JSON.stringify({\n        success: true,\n        message: \"Test successful\",\n      }));\n    ")
			status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "test-code", "timeout": 5000})
			if status != 200 || out["success"] != true {
				t.Errorf("%d %v", status, out)
			}
		}},
		{name: "HTTP - GET /nonexistent returns 404", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("GET", "/nonexistent", nil)
			_, msg, _ := errOf(out)
			if _, timed := out["executionTime"].(float64); status != 404 || out["success"] != false || msg != "Route not found" || !timed {
				t.Errorf("%d %v", status, out)
			}
		}},
		{name: "HTTP - POST /execute with env variables returns 200", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "env-test", "\n      const apiKey = Deno.env.get('API_KEY');\n      console.log(JSON.stringify({\n        success: true,\n        apiKey: apiKey,\n      }));\n    ")
			status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "env-test", "timeout": 5000, "env": map[string]any{"API_KEY": "secret-123"}})
			if res, _ := out["result"].(map[string]any); status != 200 || out["success"] != true || res["apiKey"] != "secret-123" {
				t.Errorf("%d %v", status, out)
			}
		}},
		{name: "HTTP - POST /execute with forbidden env key returns 400", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "test", "env": map[string]any{"PATH": "/usr/bin"}})
			wantError(t, status, out, 400, "ValidationError", `env key "PATH" is forbidden`)
		}},
		{name: "HTTP - POST /execute with multiple env variables returns 200", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "multi-env-test", "\n      const apiKey = Deno.env.get('API_KEY');\n      const debugMode = Deno.env.get('DEBUG_MODE');\n      const userId = Deno.env.get('USER_ID');\n      console.log(JSON.stringify({\n        success: true,\n        apiKey: apiKey,\n        debugMode: debugMode,\n        userId: userId,\n      }));\n    ")
			status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "multi-env-test", "timeout": 5000,
				"env": map[string]any{"API_KEY": "test-key-123", "DEBUG_MODE": "true", "USER_ID": "42"}})
			res, _ := out["result"].(map[string]any)
			if status != 200 || res["apiKey"] != "test-key-123" || res["debugMode"] != "true" || res["userId"] != "42" {
				t.Errorf("%d %v", status, out)
			}
		}},
		{name: "HTTP - POST /execute without env returns undefined for env variables", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "no-env-test", "\n      let apiKey;\n      let hasApiKey = false;\n      try {\n        apiKey = Deno.env.get('API_KEY');\n        hasApiKey = apiKey !== undefined;\n      } catch (error) {\n        apiKey = undefined;\n        hasApiKey = false;\n      }\n      console.log(JSON.stringify({\n        success: true,\n        hasApiKey: hasApiKey,\n        apiKey: apiKey,\n      }));\n    ")
			status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "no-env-test", "timeout": 5000})
			res, _ := out["result"].(map[string]any)
			if _, has := res["apiKey"]; status != 200 || res["hasApiKey"] != false || has {
				t.Errorf("%d %v", status, out)
			}
		}},
		{name: "HTTP - POST /execute with special characters in env value returns 200", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "special-chars-test", "\n      const message = Deno.env.get('MESSAGE');\n      const json = Deno.env.get('JSON_DATA');\n      console.log(JSON.stringify({\n        success: true,\n        message: message,\n        json: json,\n      }));\n    ")
			special := `{"key":"value","unicode":"こんにちは","emoji":"🚀"}`
			status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "special-chars-test", "timeout": 5000,
				"env": map[string]any{"MESSAGE": "Hello \"World\" with 'quotes' and\nnewlines", "JSON_DATA": special}})
			res, _ := out["result"].(map[string]any)
			if status != 200 || res["message"] != "Hello \"World\" with 'quotes' and\nnewlines" || res["json"] != special {
				t.Errorf("%d %v", status, out)
			}
		}},
	}...)
	return cases
}

// codeRequestCases are the four request checks restexec's http and lint
// suites both make of their route (named with prefix, as each suite names
// them): a missing codeId, a climbing one, a timeout out of range, and
// code never saved.
func codeRequestCases(prefix, path string) []portedCase {
	name := prefix + " - POST " + path
	return []portedCase{
		{name: name + " with missing codeId returns 400 ValidationError", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("POST", path, map[string]any{"timeout": 5000})
			wantError(t, status, out, 400, "ValidationError", "codeId is required")
		}},
		{name: name + " with path traversal returns 400 ValidationError", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("POST", path, map[string]any{"codeId": "../etc/passwd", "timeout": 5000})
			wantError(t, status, out, 400, "ValidationError", "codeId must not contain path separators or parent directory references")
		}},
		{name: name + " with invalid timeout returns 400 ValidationError", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("POST", path, map[string]any{"codeId": "test", "timeout": 999999})
			wantError(t, status, out, 400, "ValidationError", "")
		}},
		{name: name + " with non-existent file returns 404 FileNotFoundError", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("POST", path, map[string]any{"codeId": "non-existent", "timeout": 5000})
			wantError(t, status, out, 404, "FileNotFoundError", "")
		}},
	}
}

// lintCases are restexec's tests/integration/lint.test.ts.
func lintCases() []portedCase {
	cases := []portedCase{}
	cases = append(cases, codeRequestCases("Lint", "/lint")...)
	cases = append(cases, []portedCase{
		{name: "Lint - POST /lint with clean file returns 200 with empty diagnostics", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "clean-code", "\nfunction greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nconst message = greet(\"World\");\nconsole.log(JSON.stringify({ message }));\n    ")
			status, _, out := e.call("POST", "/lint", map[string]any{"codeId": "clean-code", "timeout": 5000})
			res, _ := out["result"].(map[string]any)
			diags, _ := res["diagnostics"].([]any)
			errs, _ := res["errors"].([]any)
			if _, timed := out["executionTime"].(float64); status != 200 || out["success"] != true || !timed || res["version"] == nil || diags == nil || len(diags) != 0 || errs == nil || len(errs) != 0 {
				t.Errorf("%d %v", status, out)
			}
		}},
		{name: "Lint - POST /lint with file containing issues returns 200 with diagnostics", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "code-with-issues", "\nconst unusedVariable = 123;\n\nfunction test() {\n  var oldStyleVar = \"bad\";\n  console.log(\"test\");\n}\n\nconst x = 1\n\nconsole.log(JSON.stringify({ result: \"done\" }));\n    ")
			status, _, out := e.call("POST", "/lint", map[string]any{"codeId": "code-with-issues", "timeout": 5000})
			res, _ := out["result"].(map[string]any)
			diags, _ := res["diagnostics"].([]any)
			errs, _ := res["errors"].([]any)
			if _, timed := out["executionTime"].(float64); status != 200 || out["success"] != true || !timed || res["version"] == nil || len(diags) == 0 || errs == nil || len(errs) != 0 {
				t.Fatalf("%d %v", status, out)
			}
			for _, d := range diags {
				m := d.(map[string]any)
				r, _ := m["range"].(map[string]any)
				if m["code"] == nil || m["message"] == nil || m["filename"] == nil || r["start"] == nil || r["end"] == nil {
					t.Errorf("diagnostic %v lacks deno lint's fields", m)
				}
			}
		}},
		{name: "Lint - POST /lint with invalid JSON returns 400 ValidationError", run: func(t *testing.T, e *codeEnv) {
			status, _, out := e.call("POST", "/lint", "invalid json")
			wantError(t, status, out, 400, "ValidationError", "Invalid JSON in request body")
		}},
	}...)
	return cases
}

// healthProcessCases are restexec's tests/integration/health_process.test.ts.
func healthProcessCases() []portedCase {
	observe := func(codeID, code string, timeout, wantStatus int) func(t *testing.T, e *codeEnv) {
		return func(t *testing.T, e *codeEnv) {
			writeCode(t, e, codeID, code)
			baseline := *getHealth(t, e).ActiveProcesses
			done := executeAsync(e, codeID, timeout)
			during := pollHealth(t, e, func(h health) bool { return *h.ActiveProcesses > baseline }, 50*time.Millisecond, time.Second, "activeProcesses to increase")
			if *during.ActiveProcesses != baseline+1 {
				t.Errorf("activeProcesses %d during the run, want %d", *during.ActiveProcesses, baseline+1)
			}
			if status := <-done; status != wantStatus {
				t.Errorf("the run answered %d, want %d", status, wantStatus)
			}
			pollHealth(t, e, func(h health) bool { return *h.ActiveProcesses == baseline }, 50*time.Millisecond, 2*time.Second, "activeProcesses to return to baseline")
		}
	}
	return []portedCase{
		{name: "Health - activeProcesses increments during execution and decrements after completion",
			run: observe("ping", "\n          await new Promise(resolve => setTimeout(resolve, 200));\n          console.log(JSON.stringify({ success: true, message: \"pong\" }));\n          ", 5000, 200)},
		{name: "Health - activeProcesses tracks multiple concurrent executions", run: func(t *testing.T, e *codeEnv) {
			writeCode(t, e, "slow", "\n          await new Promise(resolve => setTimeout(resolve, 300));\n          console.log(JSON.stringify({ success: true, message: \"completed\" }));\n          ")
			baseline := *getHealth(t, e).ActiveProcesses
			runs := []<-chan int{executeAsync(e, "slow", 5000), executeAsync(e, "slow", 5000), executeAsync(e, "slow", 5000)}
			pollHealth(t, e, func(h health) bool { return *h.ActiveProcesses > baseline }, 30*time.Millisecond, time.Second, "activeProcesses to increase")
			for _, r := range runs {
				if status := <-r; status != 200 {
					t.Errorf("a run answered %d", status)
				}
			}
			pollHealth(t, e, func(h health) bool { return *h.ActiveProcesses == baseline }, 50*time.Millisecond, 2*time.Second, "activeProcesses to return to baseline")
		}},
		{name: "Health - activeProcesses decrements even when execution fails",
			run: observe("failing", "\n          await new Promise(resolve => setTimeout(resolve, 100));\n          throw new Error(\"Intentional failure\");\n          ", 5000, 500)},
		{name: "Health - activeProcesses decrements when execution times out",
			run: observe("timeout", "\n          // Wait longer than the timeout\n          await new Promise(resolve => setTimeout(resolve, 5000));\n          console.log(JSON.stringify({ success: true }));\n          ", 200, 408)},
		{name: "Health - Deno subprocess can actually be spawned",
			differs: "convfiles runs scripts in its own engine, not in a Deno subprocess; the same script runs through /execute instead",
			run: func(t *testing.T, e *codeEnv) {
				writeCode(t, e, "subprocess-test", "\n        console.log(JSON.stringify({ success: true, message: \"subprocess works\" }));\n        ")
				status, _, out := e.call("POST", "/execute", map[string]any{"codeId": "subprocess-test"})
				if res, _ := out["result"].(map[string]any); status != 200 || res["success"] != true || !strings.Contains(res["message"].(string), "subprocess works") {
					t.Errorf("%d %v", status, out)
				}
			}},
	}
}
