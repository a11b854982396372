package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestGiBUploadStreamsInBoundedMemory uploads 1 GiB to a server whose
// per-file limit is 1 GiB: it must complete with the server's peak memory
// (VmHWM) under 100 MiB. One byte more must be refused with 413 and leave
// neither a file nor a temporary file. It writes 2 GiB, so it runs when
// CONVFILES_BIG_TESTS=1 (.ci/run sets it).
func TestGiBUploadStreamsInBoundedMemory(t *testing.T) {
	if os.Getenv("CONVFILES_BIG_TESTS") != "1" {
		t.Skip("writes 2 GiB: set CONVFILES_BIG_TESTS=1 (.ci/run does)")
	}
	const gib = 1 << 30
	data := t.TempDir()
	srv := startServerProcessWith(t, data, "[limits]\nmax_file_bytes = 1073741824\nmax_conversation_bytes = 4294967296\n")
	defer func() { srv.cmd.Process.Signal(syscall.SIGTERM); srv.cmd.Wait() }()

	uploadGiBInBoundedMemory(t, srv, "server peak memory (VmHWM) after a 1 GiB upload")
	if fi, err := os.Stat(filepath.Join(data, "convfiles", "files", "big", "big.bin")); err != nil || fi.Size() != gib {
		t.Fatalf("the uploaded file: %v %v", fi, err)
	}

	status, body := streamUpload(t, srv.base, "over.bin", gib+1)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "at most 1 GiB") {
		t.Fatalf("1 GiB + 1 byte: %d %s", status, body)
	}
	entries, _ := os.ReadDir(filepath.Join(data, "convfiles", "files", "big"))
	if len(entries) != 1 || entries[0].Name() != "big.bin" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("after the refused upload the conversation holds %v", names)
	}
}

// TestGiBUploadToS3StreamsInBoundedMemory uploads 1 GiB to a replica
// whose bytes live in S3: spooled to disk and sent on in 16 MiB parts,
// never held, so the server's peak memory (VmHWM) stays under 100 MiB,
// and the object holds every byte. Runs with CONVFILES_BIG_TESTS=1.
func TestGiBUploadToS3StreamsInBoundedMemory(t *testing.T) {
	if os.Getenv("CONVFILES_BIG_TESTS") != "1" {
		t.Skip("writes 2 GiB: set CONVFILES_BIG_TESTS=1 (.ci/run does)")
	}
	const gib = 1 << 30
	storage, _, _ := distributedConfig(t, "")
	srv := startServerProcessWith(t, t.TempDir(), "[limits]\nmax_file_bytes = 1073741824\nmax_conversation_bytes = 4294967296\n"+storage)
	defer func() { srv.cmd.Process.Signal(syscall.SIGTERM); srv.cmd.Wait() }()

	uploadGiBInBoundedMemory(t, srv, "replica peak memory (VmHWM) after a 1 GiB upload to S3")
	resp, err := http.Get(srv.base + "/files/big/big.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != gib {
		t.Fatalf("the link gives back %d bytes (%v), want 1 GiB", n, err)
	}
}

// uploadGiBInBoundedMemory uploads 1 GiB as big/big.bin and fails the
// test unless the server's peak memory stays under 100 MiB; it logs the
// peak after what.
func uploadGiBInBoundedMemory(t *testing.T, srv *serverProcess, what string) {
	t.Helper()
	status, body := streamUpload(t, srv.base, "big.bin", 1<<30)
	if status != http.StatusCreated {
		t.Fatalf("1 GiB upload: %d %s", status, body)
	}
	peak := peakMemory(t, srv.cmd.Process.Pid)
	t.Logf("%s: %.1f MiB", what, float64(peak)/(1<<20))
	if peak >= 100<<20 {
		t.Errorf("peak memory %d MiB, want under 100 MiB", peak>>20)
	}
}

// streamUpload sends size bytes as one file, generated while it is sent.
func streamUpload(t testing.TB, base, name string, size int64) (int, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		w, _ := mw.CreateFormFile("file", name)
		chunk := bytes.Repeat([]byte("convfiles streams uploads. "), 1<<14)
		for left := size; left > 0; {
			n := min(left, int64(len(chunk)))
			if _, err := w.Write(chunk[:n]); err != nil {
				pw.CloseWithError(err)
				return
			}
			left -= n
		}
		pw.CloseWithError(mw.Close())
	}()
	resp, err := http.Post(base+"/api/files/upload?conversation=big", mw.FormDataContentType(), pr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// peakMemory reads a process's peak resident set size from /proc.
func peakMemory(t testing.TB, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}
