package routes

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/internal/docs"
)

// The HTTP-level tests of the Workspace Save/Execute API's own server
// (restexec, seed 002: services/restexec/tests/integration/{http,lint,
// workspace,health_process}.test.ts and tests/unit/{validation,
// codeExtractor}.test.ts), ported case by case: the same requests, the
// same scripts, the same assertions, against a real convfiles server. A
// case that convfiles answers differently on purpose says why in
// differs, and asserts convfiles' answer instead; the README lists them.

// portedCase is one of restexec's tests.
type portedCase struct {
	name    string
	differs string
	run     func(t *testing.T, e *codeEnv)
}

// writeCode puts code in the workspace as restexec's TestEnvironment does.
func writeCode(t *testing.T, e *codeEnv, codeID, code string) {
	t.Helper()
	os.MkdirAll(e.workDir, 0o700)
	if err := os.WriteFile(filepath.Join(e.workDir, codeID+".ts"), []byte(code), 0o600); err != nil {
		t.Fatal(err)
	}
}

// wantError asserts restexec's ErrorResponse: the status, success false,
// the type, the message when one is given, and executionTime.
func wantError(t *testing.T, status int, out map[string]any, wantStatus int, typ, msg string) {
	t.Helper()
	gotTyp, gotMsg, _ := errOf(out)
	_, timed := out["executionTime"].(float64)
	if status != wantStatus || out["success"] != false || gotTyp != typ || msg != "" && gotMsg != msg || !timed {
		t.Errorf("got %d %v, want %d %s %q with executionTime", status, out, wantStatus, typ, msg)
	}
}

// rejects asserts that /execute refuses body with a ValidationError whose
// message includes msg (restexec's assertRejects).
func rejects(msg string, body any) func(t *testing.T, e *codeEnv) {
	return func(t *testing.T, e *codeEnv) {
		status, _, out := e.call("POST", "/execute", body)
		_, got, _ := errOf(out)
		if status != 400 || !strings.Contains(got, msg) {
			t.Errorf("got %d %v, want a ValidationError with %q", status, out, msg)
		}
	}
}

// passes asserts that /execute's validation accepts body: the code then
// runs (200), or, when no such codeId is saved, is not found (404).
func passes(body any) func(t *testing.T, e *codeEnv) {
	return func(t *testing.T, e *codeEnv) {
		status, _, out := e.call("POST", "/execute", body)
		if typ, _, _ := errOf(out); status != 200 && !(status == 404 && typ == "FileNotFoundError") {
			t.Errorf("validation refused it: %d %.300v", status, out)
		}
	}
}

// health is GET /health's answer.
type health struct {
	Status          string
	Uptime          *float64
	ActiveProcesses *int64
	MemoryUsage     map[string]any
	Version         *string
}

func getHealth(t *testing.T, e *codeEnv) health {
	t.Helper()
	resp, err := http.Get(e.srv.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h health
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&h) != nil || h.ActiveProcesses == nil {
		t.Fatalf("/health: %d", resp.StatusCode)
	}
	return h
}

// pollHealth polls /health every interval until cond holds, as
// restexec's helper does, for at most timeout.
func pollHealth(t *testing.T, e *codeEnv, cond func(health) bool, interval, timeout time.Duration, what string) health {
	t.Helper()
	for end := time.Now().Add(timeout); ; time.Sleep(interval) {
		h := getHealth(t, e)
		if cond(h) || time.Now().After(end) {
			if !cond(h) {
				t.Fatalf("timed out waiting for %s", what)
			}
			return h
		}
	}
}

// executeAsync posts {codeId, timeout} and returns the answer's status
// when it comes.
func executeAsync(e *codeEnv, codeID string, timeout int) <-chan int {
	done := make(chan int, 1)
	go func() {
		body := fmt.Sprintf(`{"codeId": %q, "timeout": %d}`, codeID, timeout)
		resp, err := http.Post(e.srv.URL+"/execute", "application/json", strings.NewReader(body))
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	return done
}

// TestRestexecSuite runs every ported case against one server, as
// restexec's suites share theirs.
func TestRestexecSuite(t *testing.T) {
	e := newCodeEnv(t, nil)
	for _, suite := range restexecSuites() {
		for _, c := range suite.cases {
			t.Run(suite.file+"/"+c.name, func(t *testing.T) { c.run(t, e) })
		}
	}
}

// restexecSuite is one of restexec's test files.
type restexecSuite struct {
	file  string
	cases []portedCase
}

func restexecSuites() []restexecSuite {
	return []restexecSuite{
		{"http.test.ts", httpCases()},
		{"lint.test.ts", lintCases()},
		{"workspace.test.ts", workspaceCases()},
		{"health_process.test.ts", healthProcessCases()},
		{"validation.test.ts", validationCases()},
		{"codeExtractor.test.ts", codeExtractorCases()},
	}
}

// TestRestexecSuiteCountIsInTheReadme: the README says how many of
// restexec's cases pass as they are and lists the others.
func TestRestexecSuiteCountIsInTheReadme(t *testing.T) {
	readme, err := []byte(docs.Text(t)), error(nil)
	if err != nil {
		t.Fatal(err)
	}
	total, same := 0, 0
	for _, s := range restexecSuites() {
		for _, c := range s.cases {
			total++
			if c.differs == "" {
				same++
			} else if !strings.Contains(string(readme), c.name) {
				t.Errorf("the README does not list %q, which convfiles answers differently: %s", c.name, c.differs)
			}
		}
	}
	want := fmt.Sprintf("%d of restexec's %d", same, total)
	if !strings.Contains(string(readme), want) {
		t.Errorf("the README does not say %q", want)
	}
}

// TestCodeRoutesTimeEveryRefusal: a code route's answer carries
// executionTime even when the credential is refused before any handler.
func TestCodeRoutesTimeEveryRefusal(t *testing.T) {
	e := newHostedEnv(t)
	for _, path := range []string{"/execute", "/lint", "/workspace"} {
		method := "POST"
		if path == "/workspace" {
			method = "PUT"
		}
		status, env, _ := e.call(method, path, "", "application/json", []byte(`{"code": "1"}`))
		if status != 401 || !strings.Contains(env.raw, `"executionTime":`) {
			t.Errorf("%s without a credential: %d %s", path, status, env.raw)
		}
	}
}
