package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"convfiles/internal/hostile"
)

// hostileServer is convfiles serve, in this process, with its workers.
type hostileServer struct {
	t    *testing.T
	base string
}

func (h *hostileServer) post(path, body string) (int, map[string]any) {
	h.t.Helper()
	req, _ := http.NewRequest("POST", h.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(b, &out)
	if out == nil {
		out = map[string]any{"raw": string(b)}
	}
	return resp.StatusCode, out
}

func (h *hostileServer) upload(conv, name string, data []byte) string {
	h.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(data)
	mw.Close()
	resp, err := http.Post(h.base+"/api/files/upload?conversation="+conv, mw.FormDataContentType(), &buf)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result struct{ Files []struct{ ID string } }
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != 201 || len(out.Result.Files) != 1 {
		h.t.Fatalf("upload %s: %d", name, resp.StatusCode)
	}
	return out.Result.Files[0].ID
}

func (h *hostileServer) health() map[string]any {
	resp, err := http.Get(h.base + "/healthz")
	if err != nil {
		h.t.Fatalf("the server stopped answering: %v", err)
	}
	defer resp.Body.Close()
	var out struct{ Result map[string]any }
	json.NewDecoder(resp.Body).Decode(&out)
	sb, _ := out.Result["sandbox"].(map[string]any)
	return sb
}

// cpuTicks is the CPU time, in clock ticks, of this process and of every
// worker it started, as /proc counts it.
func cpuTicks(t *testing.T) (self, workers int64) {
	read := func(pid string) (ppid, ticks int64) {
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return 0, 0
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		ppid, _ = strconv.ParseInt(f[1], 10, 64)
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		return ppid, u + s
	}
	_, self = read(strconv.Itoa(os.Getpid()))
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if ppid, ticks := read(e.Name()); ppid == int64(os.Getpid()) {
			workers += ticks
		}
	}
	return self, workers
}

// TestHostileWorkThroughEveryDoor sends the hostile-work corpus through
// /execute, /lint, MCP and the REST previews of a real server whose
// scripts and decoders run in workers. Each case must end with a clear
// error; the server answers /healthz, its CPU and its workers' fall idle
// after the answer, its memory stays bounded, and a normal run succeeds
// right after. Cases that need a kill must kill a worker. How long each
// took is logged, not asserted: the bound only catches one never stopped.
func TestHostileWorkThroughEveryDoor(t *testing.T) {
	dir := t.TempDir()
	addr, stop := startServe(t, dir, func(c *Config) {
		c.Runtime.MemoryLimit = 256 << 20
		c.RateLimit = RateLimitConfig{}
		// Every case but the timeouts' own checks another limit: the
		// timeouts are set far out of its reach, so a slow machine never
		// has a timeout fire first.
		c.Sandbox.FormatTimeout = Duration{5 * time.Minute}
	})
	defer stop()
	h := &hostileServer{t: t, base: "http://" + addr}
	cyclic := h.upload("hostile", "cyclic.pdf", hostile.CyclicPDF())
	bomb := h.upload("hostile", "bomb.pdf", hostile.FlateBombPDF(300<<20))
	h.upload("hostile", "big.png", hostile.BigBlankPNG(7000, 7000))
	h.upload("hostile", "base.png", hostile.BigBlankPNG(64, 64))
	fifo := filepath.Join(dir, "map.fifo")
	syscall.Mkfifo(fifo, 0o600)

	const outOfReach = 300000 // ms: the longest timeout a run may have
	js := func(code string, timeoutMS int) string {
		b, _ := json.Marshal(map[string]any{"code": code, "language": "js", "conversationId": "hostile", "timeout": timeoutMS})
		return string(b)
	}
	mcpCall := func(tool string, args map[string]any) string {
		args["conversation_id"] = "hostile"
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
		return string(b)
	}
	cases := []struct {
		name, door, path, body string
		kill                   bool   // the case must end by killing a worker
		want                   string // in the answer
	}{
		{"66-byte eval of nested brackets", "execute", "/execute", js(`eval("x=" + "[".repeat(1e6) + "]".repeat(1e6))`, outOfReach), false, "nests deeper"},
		{"2 MB of brackets to lint", "lint", "/lint", `{"code": "` + strings.Repeat("[", 2<<20) + `", "language": "typescript"}`, false, "nests deeper"},
		{"a sourceMappingURL naming a FIFO", "execute", "/execute", js(`eval("1\n//# sourceMappingURL=`+fifo+`")`, outOfReach), false, `"success":true`},
		{"a sourceMappingURL naming /dev/zero", "execute", "/execute", js(`new Function("return 2\n//# sourceMappingURL=/dev/zero")()`, outOfReach), false, `"success":true`},
		{"JSON.stringify of 300,000 levels", "execute", "/execute", js(`let o = {}; for (let i = 0; i < 3e5; i++) o = {a: o}; JSON.stringify(o)`, outOfReach), false, "nests deeper"},
		{"a sort in Go past its timeout", "execute", "/execute", js(`const a = []; for (let i = 0; i < 3e6; i++) a.push(i); a.sort()`, 1000), false, "TimeoutError"},
		{"a parser bomb the scan cannot see (a chain split by line breaks)", "execute", "/execute",
			js(`eval("x=" + "a?\n".repeat(15e5) + "1" + ":1".repeat(15e5))`, 5000), true, "worker process was stopped"},
		{"a backtracking regexp", "execute", "/execute", js(`/^(?=(a+)+)(a+)+\1b$/.test("a".repeat(40) + "c")`, 1000), false, "TimeoutError"},
		{"memory past the worker's limit", "execute", "/execute", js(`const a = []; for (;;) a.push(new Uint8Array(200 << 20).fill(1))`, outOfReach), false, "LimitError"},
		{"a cyclic PDF read by read_file", "execute", "/execute", js(`read_file("cyclic.pdf").get_str()`, outOfReach), false, "page tree loops"},
		{"a cyclic PDF's text", "execute", "/execute", js(`files.pdf.extractText("cyclic.pdf")`, outOfReach), false, "page tree loops"},
		{"32 overlays of 49 megapixels", "execute", "/execute",
			js(`files.image.composite("base.png", Array(32).fill({image: "big.png"}))`, outOfReach), false, "megapixels together"},
		{"MCP pdf_extract_text of a cyclic PDF", "mcp", "/mcp", mcpCall("pdf_extract_text", map[string]any{"file": "cyclic.pdf"}), false, "page tree loops"},
		{"MCP image_composite bomb", "mcp", "/mcp", mcpCall("image_composite", map[string]any{"file": "base.png",
			"overlays": []map[string]any{{"image": "big.png"}, {"image": "big.png"}}}), false, "megapixels together"},
		{"REST preview of a cyclic PDF", "preview", "/api/files/" + cyclic + "/preview", "", false, "damaged"},
		{"REST preview of a 300 MB Flate stream", "preview", "/api/files/" + bomb + "/preview", "", false, "inflate to more than"},
	}
	var rssBound int64 = 1 << 30
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := h.health()
			start := time.Now()
			var status int
			var out map[string]any
			switch c.door {
			case "preview":
				resp, err := http.Get(h.base + c.path)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				status, out = resp.StatusCode, map[string]any{"raw": string(b)}
			case "mcp":
				status, out = h.mcp(c.body)
			default:
				status, out = h.post(c.path, c.body)
			}
			took := time.Since(start)
			b, _ := json.Marshal(out)
			t.Logf("%s → %d in %v: %.300s", c.door, status, took, b)
			if !strings.Contains(string(b), c.want) {
				t.Fatalf("the answer does not say %q", c.want)
			}
			if took > 2*time.Minute {
				t.Fatalf("took %v: the work was not stopped", took)
			}
			after := h.health()
			if killed := after["killed"].(float64) - before["killed"].(float64); c.kill && killed < 1 {
				t.Fatalf("no worker was killed: %v → %v", before, after)
			}
			self0, workers0 := cpuTicks(t)
			time.Sleep(time.Second)
			self1, workers1 := cpuTicks(t)
			if busy := (self1 - self0) + (workers1 - workers0); busy > 30 { // 0.3 s of a second's 2 s of CPU
				t.Fatalf("the server and its workers used %d ticks of CPU in the second after the answer", busy)
			}
			if rss := rssBytes(); rss > rssBound {
				t.Fatalf("the server's RSS is %d MB", rss>>20)
			}
			if _, ok := h.post("/execute", js(`write_file("after.txt", "fine"); 40 + 2`, outOfReach)); !strings.Contains(jsonOf(ok), `"result":42`) {
				t.Fatalf("a normal run after it: %v", ok)
			}
		})
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// rssBytes is this process's resident memory.
func rssBytes() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// mcp initializes a session once and sends a request in it.
func (h *hostileServer) mcp(body string) (int, map[string]any) {
	h.t.Helper()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", h.base+"/mcp", strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	req, _ = http.NewRequest("POST", h.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if i := bytes.Index(b, []byte("data: ")); i >= 0 {
		b = b[i+6:]
	}
	var out map[string]any
	json.Unmarshal(b, &out)
	if out == nil {
		out = map[string]any{"raw": string(b)}
	}
	return resp.StatusCode, out
}
