package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/ops"
	"convfiles/runtime"
)

// countingSpace is a conversation's Space that counts the files opened
// one by one through it (Open), as a worker's reads of single files are.
type countingSpace struct {
	*engine.Space
	opens atomic.Int64
}

func (c *countingSpace) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	c.opens.Add(1)
	return c.Space.Open(ctx, name)
}

// TestAScriptsSearchRunsInTheServer: files.search from a script in a
// worker is run whole by the server, which reads the conversation's
// folders itself: no file is opened for the worker one by one, and the
// script sees what the operation answers through any other door.
func TestAScriptsSearchRunsInTheServer(t *testing.T) {
	p := newPool(t, Config{})
	_, sp := newSpace(t, "bulk")
	ctx := context.Background()
	for i := range 30 {
		text := fmt.Sprintf("line one of %d\nthe needle of %d\nline three\n", i, i)
		if i%3 != 0 {
			text = "nothing here\n"
		}
		if _, err := sp.WriteBytes(ctx, fmt.Sprintf("notes/n%02d.txt", i), []byte(text), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	counting := &countingSpace{Space: sp}
	rep, err := p.Run(ctx, runtime.Request{Space: counting, Source: `
		const r = files.search("needle", {context: 1});
		[r.filesMatched, r.filesSearched, r.matches.map(m => m.name + ":" + m.line + ":" + m.before[0]).join(",")]`})
	if err != nil || rep.Error != nil {
		t.Fatalf("%v %+v", err, rep)
	}
	direct, err := ops.SearchFiles(ctx, ops.Env{Space: sp}, ops.SearchFilesIn{Pattern: "needle", Context: 1})
	if err != nil {
		t.Fatal(err)
	}
	var hits []string
	for _, m := range direct.Matches {
		hits = append(hits, fmt.Sprintf("%s:%d:%s", m.Name, m.Line, m.Before[0]))
	}
	want, _ := json.Marshal([]any{direct.FilesMatched, direct.FilesSearched, strings.Join(hits, ",")})
	if string(rep.Result) != string(want) || direct.FilesMatched != 10 {
		t.Fatalf("the script's search: %s\nthe operation's: %s", rep.Result, want)
	}
	if n := counting.opens.Load(); n != 0 {
		t.Fatalf("the worker was sent %d files one by one, want the search run in the server", n)
	}
}

// TestOnlyBulkReadsRunForAWorker: the server runs for a worker a bulk
// read and nothing else, and the read's errors cross as they are.
func TestOnlyBulkReadsRunForAWorker(t *testing.T) {
	_, sp := newSpace(t, "bulk-wire")
	o := &opServer{ctx: context.Background(), sp: sp, budget: files.NewBudget(0)}
	for _, c := range []struct{ op, in, want string }{
		{"write_text", `{"id":"x.txt","content":"x"}`, "only a bulk read"},
		{"delete", `{"id":"x.txt"}`, "only a bulk read"},
		{"no_such_op", `{}`, "only a bulk read"},
		{"search", `{"pattern":"x","surprise":1}`, "surprise"},
		{"search", `{"pattern":"("}`, "pattern"},
	} {
		r := serve(t, o, opRunBulk, time.Time{}, c.op, c.in, ops.Bounds{})
		if err := r.Err.decode(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want an error saying %q", c.op, c.in, err, c.want)
		}
	}
	if _, err := sp.Stat(context.Background(), "x.txt"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("a write asked of the server as a bulk read: %v, want nothing written", err)
	}
}
