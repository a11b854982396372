package sandbox

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// probeEnv asks a test binary to confine itself as a worker does and
// report what it can still do (see probeConfined).
const probeEnv = "CONVFILES_CONFINE_PROBE"

// probeConfined runs in the child: confine, then try what a bug in a
// decoder or in goja could try.
func probeConfined(tempDir string) {
	cfg := &workerConfig{TempDir: tempDir, AddressSpace: 8 << 30, DataBytes: 1 << 30, CPULifetime: 600}
	out := map[string]string{"status": confine(cfg)}
	// The priority of this thread and of one made after: getpriority's
	// raw answer is 20 minus the nice value.
	prio, _ := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	later := make(chan int)
	go func() {
		runtime.LockOSThread() // a thread of its own, made now
		p, _ := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
		later <- p
	}()
	out["nice"] = fmt.Sprintf("%d %d", 20-prio, 20-<-later)
	try := func(name string, err error) {
		if err == nil {
			out[name] = "allowed"
		} else {
			out[name] = "refused: " + err.Error()
		}
	}
	_, err := os.ReadFile("/etc/hostname")
	try("read /etc/hostname", err)
	_, err = os.ReadDir("/")
	try("list /", err)
	try("write outside", os.WriteFile(filepath.Join(filepath.Dir(tempDir), "escape.txt"), []byte("x"), 0o600))
	try("write temp", os.WriteFile(filepath.Join(tempDir, "ok.txt"), []byte("x"), 0o600))
	ln, err := net.Listen("tcp", os.Getenv(probeEnv+"_FREE"))
	try("listen", err)
	if ln != nil {
		ln.Close()
	}
	c, err := net.Dial("tcp", os.Getenv(probeEnv+"_ADDR"))
	try("connect", err)
	if c != nil {
		c.Close()
	}
	pid, err := syscall.ForkExec("/bin/true", []string{"true"}, &syscall.ProcAttr{})
	if err == nil {
		syscall.Wait4(pid, nil, 0, nil)
	}
	try("exec", err)
	var lim syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	out["nofile"] = strings.TrimSpace(string(rune('0' + lim.Cur/100)))
	setCPULimit(5 * time.Second)
	var cpu syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_CPU, &cpu)
	out["cpu"] = fmt.Sprint(cpu.Cur, " ", cpu.Max)
	json.NewEncoder(os.Stdout).Encode(out)
	os.Exit(0)
}

// TestWorkersAreConfined: a confined process cannot read or list the
// host's files, write outside its temporary folder, listen, connect or
// run a program; it may write its temporary files. Where the kernel has
// no Landlock, the status says so and the rlimits still hold.
func TestWorkersAreConfined(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freeAddr := free.Addr().String()
	free.Close()
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), probeEnv+"="+tmp, probeEnv+"_ADDR="+ln.Addr().String(), probeEnv+"_FREE="+freeAddr)
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, outb)
	}
	var got map[string]string
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatalf("%s", outb)
	}
	t.Logf("%v", got)
	if got["nofile"] != "2" {
		t.Errorf("RLIMIT_NOFILE not set: %v", got["nofile"])
	}
	if got["cpu"] != "37 600" { // used (< 1 s, rounded up) + 5 s + 1 + 30 s of slack; the life's 600 s
		t.Errorf("RLIMIT_CPU: %s", got["cpu"])
	}
	if got["nice"] != fmt.Sprintf("%d %d", workerNice, workerNice) {
		t.Errorf("the worker's threads run at nice %s, not %d below the server", got["nice"], workerNice)
	}
	if got["write temp"] != "allowed" {
		t.Errorf("the worker cannot write its temporary folder: %s", got["write temp"])
	}
	if !strings.Contains(got["status"], "landlock ABI") {
		t.Logf("no Landlock on this kernel: %s", got["status"])
		return
	}
	// Binding a port is not refused on every kernel (seen allowed on 6.18
	// with ABI 7); what a worker could reach is, which connect shows.
	for _, k := range []string{"read /etc/hostname", "list /", "write outside", "exec", "connect"} {
		if !strings.HasPrefix(got[k], "refused") {
			t.Errorf("%s: %s", k, got[k])
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(tmp), "escape.txt")); err == nil {
		t.Error("a file was written outside the temporary folder")
	}
}
