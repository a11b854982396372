// Package s3server starts a throwaway S3-compatible server for tests and
// benchmarks: the Versity S3 Gateway (versitygw) serving a new temporary
// folder on a free loopback port, stopped and removed by Stop. .ci/run
// installs the pinned release with go install.
//
// It is for tests only and must never import a convfiles package but
// internal/testserver and internal/needs.
package s3server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"convfiles/internal/testserver"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// The credentials of every test server.
const (
	AccessKey = "convfiles-test"
	SecretKey = "convfiles-test-secret"
)

// Install is the command that installs the gateway this package runs.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Server is one running gateway.
type Server struct {
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
	done chan error
	stop sync.Once
}

// Start runs a gateway over a new temporary folder.
func Start() (*Server, error) {
	bin, err := binary()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "convfiles-s3-*")
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		return nil, err
	}
	s, err := testserver.Retry(func() (*Server, error) { return start(bin, dir) })
	if err != nil {
		os.RemoveAll(dir)
	}
	return s, err
}

func start(bin, dir string) (*Server, error) {
	port, err := testserver.FreePort()
	if err != nil {
		return nil, err
	}
	return launch(bin, dir, port)
}

// Restart stops the gateway, waits for down, and starts it again on the
// same port and folder: an outage of the object store, for fault tests.
func (s *Server) Restart(down time.Duration) error {
	s.stopProcess()
	time.Sleep(down)
	ns, err := launch(s.bin, s.dir, s.port)
	if err != nil {
		return err
	}
	s.cmd, s.done = ns.cmd, ns.done
	return nil
}

// launch starts the gateway on port and waits until it answers.
func launch(bin, dir string, port int) (*Server, error) {
	logf, err := os.OpenFile(filepath.Join(dir, "server.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child holds its own descriptor
	cmd := exec.Command(bin, "--port", "127.0.0.1:"+strconv.Itoa(port), "--quiet", "posix", filepath.Join(dir, "data"))
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+AccessKey, "ROOT_SECRET_KEY="+SecretKey)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir, port: port, cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			b, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("versitygw exited: %v: %s", err, b)
		default:
		}
		if resp, err := http.Get(s.Endpoint()); err == nil {
			resp.Body.Close()
			return s, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.Stop()
	return nil, errors.New("versitygw did not answer within 30 s")
}

// Endpoint is the server's URL.
func (s *Server) Endpoint() string { return "http://" + s.Addr() }

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Dir is the folder the gateway serves: one sub-folder per bucket.
func (s *Server) Dir() string { return filepath.Join(s.dir, "data") }

// Client returns a client of the server.
func (s *Server) Client() (*minio.Client, error) {
	return minio.New(s.Addr(), &minio.Options{Creds: credentials.NewStaticV4(AccessKey, SecretKey, ""), Region: "us-east-1"})
}

// CreateBucket makes the bucket name.
func (s *Server) CreateBucket(name string) error {
	c, err := s.Client()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return c.MakeBucket(ctx, name, minio.MakeBucketOptions{})
}

// Stop stops the gateway and removes its folder. A second Stop does
// nothing.
func (s *Server) Stop() error {
	var err error
	s.stop.Do(func() {
		s.stopProcess()
		err = os.RemoveAll(s.dir)
	})
	return err
}

// stopProcess ends the gateway's process: SIGTERM, then SIGKILL after 10 s.
func (s *Server) stopProcess() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// binary finds versitygw on PATH or in the Go bin folder.
func binary() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	gobin := os.Getenv("GOBIN")
	if gobin == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		gobin = filepath.Join(gopath, "bin")
	}
	p := filepath.Join(gobin, "versitygw")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no S3 server for the tests: install the Versity S3 Gateway with %s", Install)
	}
	return p, nil
}
