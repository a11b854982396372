package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"convfiles/files"
)

// serve is one call of a job's opServer over sp, as a worker sends it.
func serve(t *testing.T, o *opServer, op string, deadline time.Time, args ...any) *message {
	t.Helper()
	r, fds := o.handle(&message{Kind: kindCall, Op: op, Args: args, Deadline: deadline})
	closeAll(fds)
	return r
}

// TestTheWireCallsOpsMethodsByName: a call reaches the Space's method of
// its name with its arguments and answers its results; the caller's
// deadline bounds the call in the server; and what a hostile worker may
// send (a method Ops lacks, one without an error, arguments of the wrong
// type or number) is refused, never a panic of the server.
func TestTheWireCallsOpsMethodsByName(t *testing.T) {
	_, sp := newSpace(t, "wire")
	o := &opServer{ctx: context.Background(), sp: sp, budget: files.NewBudget(0)}
	ctx := context.Background()
	if _, err := sp.WriteBytes(ctx, "a.txt", []byte("one\ntwo\nthree\n"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	r := serve(t, o, "ReadLines", time.Time{}, "a.txt", files.LineQuery{Start: 2, End: 3})
	if got := result[files.LineRange](r, 0); r.Err != nil || got.Content != "two\nthree\n" || got.TotalLines != 3 {
		t.Fatalf("ReadLines: %+v %+v", got, r.Err)
	}
	r = serve(t, o, "WriteBytes", time.Time{}, "b.txt", []byte("new"), toWire(files.WriteOptions{}))
	if info := result[files.Info](r, 0); r.Err != nil || info.Name != "b.txt" || info.Size != 3 {
		t.Fatalf("WriteBytes: %+v %+v", info, r.Err)
	}
	r = serve(t, o, "Record", time.Now().Add(-time.Second), "a.txt")
	if err := r.Err.decode(); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("a call past its caller's deadline: %v", err)
	}
	for _, c := range []struct {
		op   string
		args []any
		want string
	}{
		{"Close", nil, "no such file operation"},
		{"ID", nil, "no such file operation"},
		{"Stat", []any{42}, "of type int was sent where string is taken"},
		{"Stat", nil, "takes more arguments"},
		{"Stat", []any{"a.txt", "b.txt"}, "takes fewer arguments"},
		{"Write", []any{"a.txt", "bytes", toWire(files.WriteOptions{})}, "NewWriter"},
	} {
		r := serve(t, o, c.op, time.Time{}, c.args...)
		if err := r.Err.decode(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s%v: %v, want an error saying %q", c.op, c.args, err, c.want)
		}
	}
}

// TestTheEngineReportsWhatACallChanged: the job's log of touched files
// is told by the engine as each change commits (a rename touches both
// names), not guessed from the method's name.
func TestTheEngineReportsWhatACallChanged(t *testing.T) {
	_, sp := newSpace(t, "touch")
	o := &opServer{ctx: context.Background(), sp: sp, budget: files.NewBudget(0)}
	opts := toWire(files.WriteOptions{})
	serve(t, o, "WriteBytes", time.Time{}, "a.txt", []byte("a"), opts)
	serve(t, o, "WriteAt", time.Time{}, "log.txt", int64(0), []byte("x"), opts)
	serve(t, o, "Rename", time.Time{}, "a.txt", "b.txt")
	got := o.touched.Final(context.Background(), sp, func(string) string { return "" })
	want := "a.txt:remove log.txt:append b.txt:write"
	var parts []string
	for _, tc := range got {
		parts = append(parts, tc.Name+":"+tc.Op)
	}
	if strings.Join(parts, " ") != want {
		t.Fatalf("touched %v, want %s", parts, want)
	}
}
