package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRunStopsAStuckScriptAndLeavesNothing: convfiles run of a script
// stuck in a backtracking regular expression (which no interrupt
// reaches) under --timeout 1s answers its TimeoutError, exits 1, and
// leaves no process behind: the script ran in a worker, and the worker
// was killed. The command runs as its own process, with a temporary
// folder of its own, which its workers inherit: none may be alive after.
func TestRunStopsAStuckScriptAndLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	data := t.TempDir()
	cmd := exec.Command(os.Args[0], "run", "--data-dir", data, "--config", filepath.Join(data, "none.toml"), "--timeout", "1s", "--conversation", "c1", "-")
	os.WriteFile(filepath.Join(data, "none.toml"), nil, 0o600)
	cmd.Env = append(os.Environ(), "CONVFILES_RUN_MAIN=1", "TMPDIR="+tmp)
	cmd.Stdin = strings.NewReader(`const r = /^(a+)+\1$/; r.test("a".repeat(40) + "b")`)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// While it runs, the script is in a worker: a process of its own.
	var err error
	sawWorker := false
	for waiting := true; waiting; {
		select {
		case err = <-exited:
			waiting = false
		default:
			for _, pid := range processesUnder(t, tmp) {
				sawWorker = sawWorker || pid != strconv.Itoa(cmd.Process.Pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !sawWorker {
		t.Error("the script ran in convfiles run's own process, not in a worker")
	}
	var rep struct {
		Error struct{ Type, Limit, Message string }
	}
	json.Unmarshal(out.Bytes(), &rep)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || rep.Error.Type != "TimeoutError" || !strings.Contains(rep.Error.Message, "worker process was stopped") {
		t.Fatalf("exit %v, report %s", err, out.Bytes())
	}
	if left := processesUnder(t, tmp); len(left) > 0 {
		t.Fatalf("processes left behind after convfiles run exited: %v", left)
	}
}

// processesUnder lists the processes whose TMPDIR lies under dir.
func processesUnder(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc to look for processes in:", err)
	}
	var left []string
	for _, e := range entries {
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if v, ok := bytes.CutPrefix(kv, []byte("TMPDIR=")); ok && strings.HasPrefix(string(v), dir) {
				left = append(left, e.Name())
			}
		}
	}
	return left
}
