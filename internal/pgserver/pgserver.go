// Package pgserver starts a throwaway PostgreSQL server for tests and
// benchmarks: initdb into a new temporary folder, the server on a free
// loopback port (TCP on 127.0.0.1 and a socket in that folder only),
// stopped and removed by Stop. It uses the machine's PostgreSQL binaries
// (Debian's postgresql package); run as root, the server runs as the
// postgres user, since initdb refuses root.
//
// It is for tests only and must never import a convfiles package but
// internal/testserver and internal/needs.
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"convfiles/internal/testserver"
)

// Server is one running PostgreSQL server.
type Server struct {
	bin  string
	dir  string
	data string
	cred *syscall.Credential
	opts Options
	port int
	cmd  *exec.Cmd
	done chan error
	log  *os.File
	stop sync.Once
}

// Options tunes a Server.
type Options struct {
	// Durable keeps fsync on, as a production server runs; tests leave it
	// off, since they kill processes, not machines.
	Durable bool
	// MaxConnections is the server's max_connections; 0 means 200.
	MaxConnections int
}

// User is the role the tests connect as: the superuser initdb makes.
const User = "convfiles"

// Start initializes a cluster in a new temporary folder and starts it.
func Start(opts Options) (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "convfiles-pg-*")
	if err != nil {
		return nil, err
	}
	cred, err := runAs(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", User, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	s, err := testserver.Retry(func() (*Server, error) { return start(bin, dir, data, cred, opts) })
	if err != nil {
		os.RemoveAll(dir)
	}
	return s, err
}

// start runs the server on a free port and waits until it accepts
// connections. The server dies with this process (Pdeathsig) should
// Stop never run.
func start(bin, dir, data string, cred *syscall.Credential, opts Options) (*Server, error) {
	port, err := testserver.FreePort()
	if err != nil {
		return nil, err
	}
	return launch(bin, dir, data, cred, opts, port)
}

// Restart stops the server, waits for down, and starts it again on the
// same port and data: an outage of the database, for fault tests.
func (s *Server) Restart(down time.Duration) error {
	s.stopProcess()
	time.Sleep(down)
	ns, err := launch(s.bin, s.dir, s.data, s.cred, s.opts, s.port)
	if err != nil {
		return err
	}
	s.cmd, s.done, s.log = ns.cmd, ns.done, ns.log
	return nil
}

// launch starts the server on port and waits until it accepts sessions.
func launch(bin, dir, data string, cred *syscall.Credential, opts Options, port int) (*Server, error) {
	logf, err := os.OpenFile(filepath.Join(dir, "server.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	maxConns := opts.MaxConnections
	if maxConns == 0 {
		maxConns = 200
	}
	args := []string{"-D", data, "-p", strconv.Itoa(port), "-k", dir, "-c", "listen_addresses=127.0.0.1",
		"-c", "max_connections=" + strconv.Itoa(maxConns), "-c", "shared_buffers=64MB"}
	if !opts.Durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"), args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &Server{bin: bin, dir: dir, data: data, cred: cred, opts: opts, port: port, cmd: cmd, done: make(chan error, 1), log: logf}
	go func() { s.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			logf.Close()
			b, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("postgres exited: %v: %s", err, lastLines(string(b), 10))
		default:
		}
		c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
		if err == nil {
			c.Close()
			if s.ready() {
				return s, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stopProcess()
	return nil, errors.New("postgres did not accept connections within 30 s")
}

// ready reports whether the server has finished starting up (it accepts
// TCP before it accepts sessions).
func (s *Server) ready() bool {
	out, err := exec.Command(filepath.Join(s.bin, "pg_isready"), "-h", "127.0.0.1", "-p", strconv.Itoa(s.port), "-U", User).CombinedOutput()
	return err == nil && strings.Contains(string(out), "accepting")
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// URL is the connection URL of database db.
func (s *Server) URL(db string) string {
	return "postgres://" + User + "@" + s.Addr() + "/" + db + "?sslmode=disable"
}

// Log returns the end of the server's log, for a failing test's message.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	return lastLines(string(b), 20)
}

// Stop shuts the server down (fast shutdown) and removes its folder. A
// second Stop does nothing.
func (s *Server) Stop() error {
	var err error
	s.stop.Do(func() {
		s.stopProcess()
		err = os.RemoveAll(s.dir)
	})
	return err
}

func (s *Server) stopProcess() {
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.log.Close()
}

// binDir finds the PostgreSQL binaries: on PATH, else Debian's folder.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), nil
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		return "", errors.New("no PostgreSQL server binaries: install Debian's postgresql package (apt-get install postgresql)")
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

// runAs returns the credential the server runs under (nil: this user)
// and hands it dir. As root that is the postgres user.
func runAs(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("running as root, PostgreSQL needs a postgres user to run as (Debian's postgresql package makes one)")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// ctxTimeout is how long one administrative statement may take.
func ctxTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}
