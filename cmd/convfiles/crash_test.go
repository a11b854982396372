package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"convfiles/internal/pgserver"
	"convfiles/internal/s3server"
	"convfiles/sandbox"
)

// TestMain lets the test binary act as the convfiles binary: with
// CONVFILES_RUN_MAIN=1 it runs the command line instead of the tests, so a
// test can start a real server process and kill it.
func TestMain(m *testing.M) {
	// The servers these tests start run their scripts in worker
	// processes: this binary, started again as one.
	sandbox.RunWorkerIfAsked()
	if os.Getenv("CONVFILES_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
	}
	code := m.Run()
	// The distributed store's tests share one PostgreSQL and one S3
	// server per test binary.
	pgserver.StopShared()
	s3server.StopShared()
	os.Exit(code)
}

// serverProcess is convfiles serve in a child process.
type serverProcess struct {
	cmd  *exec.Cmd
	base string
}

func startServerProcess(t *testing.T, dataDir string) *serverProcess {
	t.Helper()
	return startServerProcessWith(t, dataDir, "")
}

// startServerProcessWith starts the server with a config file holding toml.
func startServerProcessWith(t testing.TB, dataDir, toml string) *serverProcess {
	t.Helper()
	if toml != "" {
		cfgDir := filepath.Join(dataDir, "config", "convfiles")
		os.MkdirAll(cfgDir, 0o700)
		if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(toml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "CONVFILES_RUN_MAIN=1", "XDG_DATA_HOME="+dataDir, "XDG_CONFIG_HOME="+filepath.Join(dataDir, "config"))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addrRe := regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := addrRe.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case addr := <-found:
		return &serverProcess{cmd: cmd, base: "http://" + addr}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the server did not start")
	}
	return nil
}

// payload is the content a write of name carries: deterministic, so any
// file found later can be checked for being whole.
func payload(name string, round int) []byte {
	line := fmt.Sprintf("%s round %d\n", name, round)
	return bytes.Repeat([]byte(line), 200+len(name)*round%3000)
}

// TestSIGKILLDuringConcurrentWritesLosesNothing kills the server with
// SIGKILL while 500 clients upload and run scripts that write, restarts it,
// and checks that every acknowledged write is there, whole, that no partial
// or temporary file is visible, and that the index agrees with disk.
func TestSIGKILLDuringConcurrentWritesLosesNothing(t *testing.T) {
	data := t.TempDir()
	srv := startServerProcess(t, data)
	client := &http.Client{Timeout: 30 * time.Second}
	const writers = 500
	var mu sync.Mutex
	acked := map[string][]byte{} // name -> the last acknowledged content
	var ackCount int
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for round := 1; ; round++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("w%03d.txt", w)
				body := payload(name, round)
				var ok bool
				if w%2 == 0 {
					ok = uploadOnce(client, srv.base, name, body)
				} else {
					ok = executeOnce(client, srv.base, name, body)
				}
				if !ok {
					return // the server is gone
				}
				mu.Lock()
				acked[name] = body
				ackCount++
				mu.Unlock()
			}
		}(w)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := ackCount
		mu.Unlock()
		if n >= 1500 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	srv.cmd.Process.Signal(syscall.SIGKILL)
	srv.cmd.Wait()
	close(stop)
	wg.Wait()
	if ackCount < writers {
		t.Fatalf("only %d writes were acknowledged before the kill", ackCount)
	}

	srv = startServerProcess(t, data)
	defer func() { srv.cmd.Process.Signal(syscall.SIGTERM); srv.cmd.Wait() }()
	conv := filepath.Join(data, "convfiles", "files", "crash")
	onDisk := map[string][]byte{}
	filepath.WalkDir(conv, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == conv {
			return err
		}
		rel, _ := filepath.Rel(conv, p)
		if d.IsDir() {
			if rel == ".convfiles-versions" {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".convfiles-") {
			t.Errorf("a temporary file survived the restart: %s", rel)
		}
		b, _ := os.ReadFile(p)
		onDisk[rel] = b
		return nil
	})
	for name, want := range acked {
		got, ok := onDisk[name]
		if !ok {
			t.Errorf("acknowledged write of %s is gone", name)
			continue
		}
		if !bytes.Equal(got, want) && !isWholePayload(name, got) {
			t.Errorf("%s holds %d bytes that are no whole write", name, len(got))
		}
	}
	for name, b := range onDisk {
		if !isWholePayload(name, b) {
			t.Errorf("%s is partial (%d bytes)", name, len(b))
		}
	}
	checkIndexMatchesDisk(t, client, srv.base, onDisk)
	t.Logf("%d writes acknowledged before SIGKILL; %d files after restart", ackCount, len(onDisk))
}

// isWholePayload reports whether b is payload(name, round) for some round.
func isWholePayload(name string, b []byte) bool {
	first, _, ok := bytes.Cut(b, []byte("\n"))
	var round int
	if !ok {
		return false
	}
	if _, err := fmt.Sscanf(string(first), name+" round %d", &round); err != nil {
		return false
	}
	return bytes.Equal(b, payload(name, round))
}

func checkIndexMatchesDisk(t *testing.T, client *http.Client, base string, onDisk map[string][]byte) {
	resp, err := client.Get(base + "/api/conversations/crash/files?limit=1000")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Result struct {
			Files []struct {
				Name   string
				Size   int64
				SHA256 string
			}
			Total int
		}
	}
	json.NewDecoder(resp.Body).Decode(&env)
	if env.Result.Total != len(onDisk) {
		t.Errorf("the index lists %d files, disk holds %d", env.Result.Total, len(onDisk))
	}
	for _, f := range env.Result.Files {
		b, ok := onDisk[f.Name]
		sum := sha256.Sum256(b)
		if !ok || int64(len(b)) != f.Size || fmt.Sprintf("%x", sum) != f.SHA256 {
			t.Errorf("index and disk disagree on %s", f.Name)
		}
	}
}

func uploadOnce(client *http.Client, base, name string, body []byte) bool {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(body)
	mw.Close()
	resp, err := client.Post(base+"/api/files/upload?conversation=crash", mw.FormDataContentType(), &buf)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusCreated
}

func executeOnce(client *http.Client, base, name string, body []byte) bool {
	code := fmt.Sprintf("write_file(%q, %q)", name, body)
	req, _ := json.Marshal(map[string]any{"code": code, "conversationId": "crash"})
	resp, err := client.Post(base+"/execute", "application/json", bytes.NewReader(req))
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var env struct{ Success bool }
	json.NewDecoder(resp.Body).Decode(&env)
	return resp.StatusCode == http.StatusOK && env.Success
}
