package routes

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/benchrun"
	"convfiles/internal/peakrss"
)

// uploadBenchBytes is the size of the file BenchmarkUploadVsCp moves.
const uploadBenchBytes = 1 << 30

// BenchmarkUploadVsCp measures a 1 GiB upload through POST
// /api/files/upload (streamed, limits checked, hashed, synced to disk,
// indexed) against the baseline of cp copying the same file on the same
// disk in the same run, and of cp followed by sync, which is as durable as
// an upload. All report bytes per second; the upload also reports the
// peak resident memory of the process (server and client) while it runs.
func BenchmarkUploadVsCp(b *testing.B) {
	dir := benchrun.Dir(b)
	src := filepath.Join(dir, "source.bin")
	if err := writeSource(src); err != nil {
		b.Fatal(err)
	}
	dst := filepath.Join(dir, "copy.bin")
	for name, script := range map[string]string{
		"cp":      `cp "$1" "$2"`,
		"cp+sync": `cp "$1" "$2" && sync "$2"`, // as durable as an upload
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(uploadBenchBytes)
			for b.Loop() {
				if out, err := exec.Command("sh", "-c", script, "sh", src, dst).CombinedOutput(); err != nil {
					b.Fatalf("%s: %v %s", name, err, out)
				}
				os.Remove(dst)
			}
		})
	}
	b.Run("upload", func(b *testing.B) {
		e := newAPIEnvAt(b, filepath.Join(dir, "files"), engine.Options{Limits: files.Limits{MaxFileBytes: 1 << 30, MaxConversationBytes: 4 << 30}, Versions: -1})
		b.SetBytes(uploadBenchBytes)
		var peak int64
		for b.Loop() {
			runtime.GC()
			peakrss.Reset()
			uploadFile(b, e.srv.URL, src)
			peak = max(peak, peakrss.Bytes())
			if err := e.store.RemoveConversation(context.Background(), "bench"); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(peakrss.MiB(peak), "process-peak-MiB")
	})
	// curl as the client, the way a person uploads, against convfiles and
	// against the floor: a bare handler copying the body to a file and
	// syncing it (no parsing, no hash, no limits, no index).
	curl, err := exec.LookPath("curl")
	if err != nil {
		return
	}
	b.Run("upload-curl", func(b *testing.B) {
		e := newAPIEnvAt(b, filepath.Join(dir, "files"), engine.Options{Limits: files.Limits{MaxFileBytes: 1 << 30, MaxConversationBytes: 4 << 30}, Versions: -1})
		b.SetBytes(uploadBenchBytes)
		for b.Loop() {
			curlUpload(b, curl, e.srv.URL+"/api/files/upload?conversation=bench", src)
			if err := e.store.RemoveConversation(context.Background(), "bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bare-curl", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			f, err := os.Create(dst)
			if err == nil {
				_, err = io.Copy(f, r.Body)
				err = errors.Join(err, f.Sync(), f.Close())
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.WriteHeader(http.StatusCreated)
		}))
		defer srv.Close()
		b.SetBytes(uploadBenchBytes)
		for b.Loop() {
			curlUpload(b, curl, srv.URL, src)
			os.Remove(dst)
		}
	})
}

// curlUpload posts the file at path as a multipart upload with curl.
func curlUpload(b *testing.B, curl, url, path string) {
	out, err := exec.Command(curl, "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-F", "file=@"+path, url).CombinedOutput()
	if err != nil || string(out) != "201" {
		b.Fatalf("curl: %v %s", err, out)
	}
}

// uploadFile streams the file at path as a multipart upload.
func uploadFile(b *testing.B, base, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		w, _ := mw.CreateFormFile("file", "upload.bin")
		if _, err := io.Copy(w, f); err != nil {
			pw.CloseWithError(err)
			return
		}
		pw.CloseWithError(mw.Close())
	}()
	resp, err := http.Post(base+"/api/files/upload?conversation=bench", mw.FormDataContentType(), pr)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b.Fatalf("upload: %d", resp.StatusCode)
	}
}

// writeSource writes the upload's source, uploadBenchBytes of text, a MiB
// at a time, so that the benchmark's own buffers do not count as the
// server's memory.
func writeSource(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	chunk := bytes.Repeat([]byte("convfiles upload bench. "), (1<<20)/24+1)[:1<<20]
	for range uploadBenchBytes / len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
