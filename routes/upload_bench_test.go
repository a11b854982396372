package routes

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"convfiles/files"
)

// uploadBenchBytes is the size of the file BenchmarkUploadVsCp moves.
const uploadBenchBytes = 256 << 20

// benchDir is where benchmarks put their files: $CONVFILES_BENCH_DIR, or
// a temporary folder on the same disk as the tests'.
func benchTempDir(b *testing.B) string {
	if root := os.Getenv("CONVFILES_BENCH_DIR"); root != "" {
		dir, err := os.MkdirTemp(root, "convfiles-bench-")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	return b.TempDir()
}

// BenchmarkUploadVsCp measures a 256 MiB upload through POST
// /api/files/upload (streamed, limits checked, hashed, synced to disk,
// indexed) against the baseline of cp copying the same file on the same
// disk in the same run, and of cp followed by sync, which is as durable as
// an upload. All report bytes per second.
func BenchmarkUploadVsCp(b *testing.B) {
	dir := benchTempDir(b)
	src := filepath.Join(dir, "source.bin")
	if err := os.WriteFile(src, bytes.Repeat([]byte("convfiles upload bench. "), uploadBenchBytes/24+1)[:uploadBenchBytes], 0o644); err != nil {
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
		e := newAPIEnvAt(b, filepath.Join(dir, "files"), files.Options{Limits: files.Limits{MaxFileBytes: 1 << 30, MaxConversationBytes: 4 << 30}, Versions: -1})
		b.SetBytes(uploadBenchBytes)
		for b.Loop() {
			uploadFile(b, e.srv.URL, src)
			if err := e.store.RemoveConversation("bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
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
