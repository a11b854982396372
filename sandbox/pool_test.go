package sandbox

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/hostile"
	"convfiles/internal/samples"
	"convfiles/internal/storetest"
	"convfiles/runtime"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "hostile-worker" && os.Getenv(workerEnv) == "1" {
		hostileWorker()
	}
	RunWorkerIfAsked()
	if dir := os.Getenv(probeEnv); dir != "" {
		probeConfined(dir)
	}
	os.Exit(m.Run())
}

// newPool starts a pool whose workers are this test binary.
func newPool(t testing.TB, cfg Config) *Pool {
	t.Helper()
	if cfg.Command == nil {
		cfg.Command = []string{os.Args[0]}
	}
	if cfg.LinkBase == "" {
		cfg.LinkBase = "http://127.0.0.1:8080"
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func newSpace(t testing.TB, conv string) (*engine.Store, *engine.Space) {
	t.Helper()
	store, _ := storetest.Open(t, t.TempDir(), engine.Options{Bus: files.NewBus()})
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return store, sp
}

// TestRunsInAWorkerUseTheServersFiles: a script in a worker writes with
// every dialect, reads back through descriptors the server opened, and
// what it wrote is in the server's store, index and report.
func TestRunsInAWorkerUseTheServersFiles(t *testing.T) {
	p := newPool(t, Config{})
	_, sp := newSpace(t, "conv-1")
	rep, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: `
		const link = write_file("a.txt", "alpha\nbeta\n");
		const h = io.open("b.txt", "w"); h.write("one "); h.write("two"); h.close();
		files.insertLines("a.txt", 1, "inserted");
		files.appendBytes("c.bin", "AQID");
		file.save("d.json", {x: 1});
		const copy = files.copy("a.txt", "copy.txt");
		[link, read_file("a.txt").get_str(), io.open("b.txt").read("*a"), files.readBytes("c.bin", 0, 3),
		 files.list().map(f => f.name).sort().join(","), list_files("*.txt").length]`})
	if err != nil {
		t.Fatalf("%v %+v", err, rep)
	}
	var got []any
	json.Unmarshal(rep.Result, &got)
	want := `[http://127.0.0.1:8080/files/conv-1/a.txt alpha
inserted
beta
 one two AQID a.txt,b.txt,c.bin,copy.txt,d.json 3]`
	if s := fmtAny(got); s != want {
		t.Fatalf("result %s\nwant %s", s, want)
	}
	if len(rep.FilesTouched) != 5 {
		t.Fatalf("files touched: %+v", rep.FilesTouched)
	}
	rec, err := sp.Record(context.Background(), "a.txt")
	if err != nil || rec.ID == "" || rec.Size != int64(len("inserted\nalpha\nbeta\n")) {
		t.Fatalf("the server's index: %+v %v", rec, err)
	}
}

func fmtAny(v []any) string {
	b, _ := json.Marshal(v)
	var parts []string
	json.Unmarshal(b, &parts)
	out := "["
	for i, x := range v {
		if i > 0 {
			out += " "
		}
		switch y := x.(type) {
		case string:
			out += y
		default:
			j, _ := json.Marshal(y)
			out += string(j)
		}
	}
	return out + "]"
}

// TestFormatOperationsRunInAWorker: a formats operation called through
// the pool reads the workbook from a passed descriptor and answers JSON.
func TestFormatOperationsRunInAWorker(t *testing.T) {
	p := newPool(t, Config{})
	_, sp := newSpace(t, "books")
	if _, err := sp.WriteBytes(context.Background(), "budget.xlsx", samples.Read(t, "budget.xlsx"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out, err := p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.ListSheets), formats.FileArgs{File: "budget.xlsx"})
	if err != nil {
		t.Fatal(err)
	}
	var sheets []struct{ Name string }
	if json.Unmarshal(out, &sheets) != nil || len(sheets) != 2 || sheets[0].Name != "Budget" {
		t.Fatalf("sheets: %s", out)
	}
	_, err = p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.ListSheets), formats.FileArgs{File: "missing.xlsx"})
	if files.KindOf(err) != files.KindNotFound {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestWorkersAreKilledAndReplaced: work that outgrows its memory or
// crashes its parser ends with a clear error; the worker is killed, a new
// one takes its place, and the next run succeeds.
func TestWorkersAreKilledAndReplaced(t *testing.T) {
	// In the second pool the soft memory guard is set high, so the
	// kernel's limit on the worker's data is what stops the allocation.
	plain := newPool(t, Config{Warm: 1, Workers: 2})
	tight := newPool(t, Config{Runtime: runtime.Config{MemoryLimit: 2 << 30}, DataBytes: 400 << 20, Warm: 1, Workers: 2})
	_, sp := newSpace(t, "c")
	for _, c := range []struct {
		name, src  string
		typ, limit string
	}{
		{"an allocation past the address-space limit",
			`const a = []; for (;;) a.push(new Uint8Array(64 << 20))`, runtime.TypeLimit, "memory"},
		// A worker skips the in-VM size guards (runtime.Config.Contained):
		// the kernel's bounds stop what they would have refused.
		{"a typed array of a terabyte",
			`new Float64Array(2 ** 37)`, runtime.TypeLimit, "memory"},
		{"a parser recursing past its stack",
			`eval("x=" + "a?\n".repeat(15e5) + "1" + ":1".repeat(15e5))`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := plain
			if c.name == "an allocation past the address-space limit" {
				p = tight
			}
			before := p.pids()
			_, killed := p.Stats()
			// A case that checks another limit sets the timeout out of
			// reach: workers run at nice 10, and a busy machine may give
			// them little.
			timeout := 4 * time.Minute
			if c.limit == "timeout" {
				timeout = 2 * time.Second
			}
			rep, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: c.src, Timeout: timeout})
			if err == nil {
				t.Fatalf("the run succeeded: %s", rep.Result)
			}
			t.Logf("%s: %s", rep.Error.Type, rep.Error.Message)
			if c.typ != "" && (rep.Error.Type != c.typ || rep.Error.Limit != c.limit) {
				t.Fatalf("got %+v, want %s/%s", rep.Error, c.typ, c.limit)
			}
			if c.typ == "" && rep.Error.Type != runtime.TypeLimit && rep.Error.Type != runtime.TypeSyntax && rep.Error.Type != runtime.TypeTimeout {
				t.Fatalf("got %+v", rep.Error)
			}
			if rep.Error.Type != runtime.TypeSyntax {
				_, killedAfter := p.Stats()
				if killedAfter != killed+1 {
					t.Fatalf("no worker was killed (%d → %d)", killed, killedAfter)
				}
				for _, pid := range before {
					if !contains(p.pids(), pid) && !gone(pid) {
						t.Fatalf("worker %d is still running", pid)
					}
				}
			}
			ok, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: `write_file("after.txt", "fine"); 42`})
			if err != nil || string(ok.Result) != "42" {
				t.Fatalf("the next run: %v %+v", err, ok)
			}
		})
	}
}

// TestAHelperCallIsCancelledInTheServer: a helper call the server cannot
// finish (a download that never arrives) is cancelled there when the
// script's timeout ends it in the worker: the cancel crosses the socket
// as the call's context promises, the run is a TimeoutError, and the
// worker, which never had to be killed, takes the next run.
func TestAHelperCallIsCancelledInTheServer(t *testing.T) {
	stalled := stalledDownloads{cancelled: make(chan struct{}, 1)}
	// The kill out of reach: what is checked is that the cancel reaches
	// the server, not how soon a busy machine lets the worker answer.
	p := newPool(t, Config{Warm: 1, Workers: 1, Grace: 2 * time.Minute, Runtime: runtime.Config{Downloader: stalled}})
	_, sp := newSpace(t, "c")
	before := p.pids()
	rep, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: `files.download("http://stalled.example/big.bin")`, Timeout: 2 * time.Second})
	if err == nil || rep.Error.Type != runtime.TypeTimeout || rep.Error.Limit != "timeout" {
		t.Fatalf("got %+v, %v; want a TimeoutError", rep, err)
	}
	select {
	case <-stalled.cancelled:
	default:
		t.Fatal("the download went on in the server after the script's timeout")
	}
	if _, killed := p.Stats(); killed != 0 {
		t.Fatalf("%d workers were killed; the cancelled call should have let the worker answer", killed)
	}
	ok, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: `write_file("after.txt", "fine"); 42`})
	if err != nil || string(ok.Result) != "42" || !slices.Equal(p.pids(), before) {
		t.Fatalf("the next run: %v %+v, workers %v then %v", err, ok, before, p.pids())
	}
}

// stalledDownloads is a download that never arrives: it waits until its
// context ends, and says so on cancelled.
type stalledDownloads struct{ cancelled chan struct{} }

func (d stalledDownloads) Download(ctx context.Context, url string) (io.ReadCloser, string, error) {
	select {
	case <-ctx.Done():
		select {
		case d.cancelled <- struct{}{}:
		default:
		}
		return nil, "", ctx.Err()
	case <-time.After(time.Minute):
		return nil, "", errors.New("stalled")
	}
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// gone waits up to 5 s for a process to no longer exist.
func gone(pid int) bool {
	for i := 0; i < 500; i++ {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestFormatOperationsPastTheirTimeoutAreKilled: a format operation that
// runs past the format timeout in code that does not look at its deadline
// (inflating the 256 MiB convfiles reads of a 300 MB stream takes a
// tenth of a second or more; the worker reaches it within milliseconds) is refused with why, its worker killed;
// the next one runs.
func TestFormatOperationsPastTheirTimeoutAreKilled(t *testing.T) {
	p := newPool(t, Config{Warm: 1, FormatTimeout: 20 * time.Millisecond, Grace: time.Millisecond})
	_, sp := newSpace(t, "pdfs")
	if _, err := sp.WriteBytes(context.Background(), "bomb.pdf", hostile.FlateBombPDF(300<<20), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.ExtractText), formats.FileArgs{File: "bomb.pdf"})
	if files.KindOf(err) != files.KindInvalid || !strings.Contains(err.Error(), "used more than 20ms of CPU time and was stopped") {
		t.Fatalf("an operation past its timeout: %v", err)
	}
	if _, killed := p.Stats(); killed != 1 {
		t.Fatalf("%d workers killed", killed)
	}
	p.cfg.FormatTimeout = time.Minute
	if _, err := sp.WriteBytes(context.Background(), "small.pdf", samples.Read(t, "sample.pdf"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.PDFInfo), formats.FileArgs{File: "small.pdf"}); err != nil {
		t.Fatalf("the next operation: %v", err)
	}
}

// pids lists the live workers' process IDs (tests watch them die).
func (p *Pool) pids() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for w := range p.live {
		out = append(out, w.cmd.Process.Pid)
	}
	return out
}

// hostileWorker plays a worker taken over by hostile code: it starts as
// one, then answers its first job with a message that claims a gigabyte.
func hostileWorker() {
	c := newConn(socketFD)
	c.recv()
	c.send(&message{Kind: kindDone, Results: []any{"hostile"}})
	c.recv()
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], 1<<30)
	syscall.Write(socketFD, hdr[:])
	time.Sleep(time.Hour)
	os.Exit(0)
}

// TestAWorkerThatBreaksTheProtocolIsKilled: a worker that sends what no
// worker sends is killed at once, and the run says so, long before its
// timeout; the server reads none of the gigabyte it claimed.
func TestAWorkerThatBreaksTheProtocolIsKilled(t *testing.T) {
	p := newPool(t, Config{Warm: 1, Workers: 1, Command: []string{os.Args[0], "hostile-worker"}})
	rep, err := p.Run(context.Background(), runtime.Request{Source: "1", Timeout: time.Minute})
	if err == nil || !strings.Contains(rep.Error.Message, "broke its protocol") {
		t.Fatalf("%v", err)
	}
	if _, killed := p.Stats(); killed != 1 {
		t.Fatalf("%d workers killed", killed)
	}
}
