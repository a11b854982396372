package js

import (
	"context"
	"strings"
	"testing"
	"time"

	"convfiles/runtime"
)

// TestTimersRunUntilTheLoopIsIdle: callbacks run in due order (ties in
// the order set), intervals repeat until cleared, promise jobs run
// between callbacks, and the run ends when nothing is pending.
func TestTimersRunUntilTheLoopIsIdle(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Source: `
const order = [];
setTimeout(() => order.push("t20"), 20);
setTimeout((a, b) => order.push("t5:" + a + b), 5, "x", "y");
setImmediate(() => order.push("immediate"));
const gone = setTimeout(() => order.push("cleared"), 1);
clearTimeout(gone);
let n = 0;
const iv = setInterval(() => { n++; order.push("iv" + n); if (n === 3) clearInterval(iv); }, 2);
Promise.resolve().then(() => order.push("micro"));
setTimeout(() => { Promise.resolve().then(() => order.push("micro-after-t30")); order.push("t30"); }, 30);
setTimeout(() => console.log(JSON.stringify(order)), 40);
void 0;`})
	if err != nil {
		t.Fatal(err)
	}
	got := string(rep.Result)
	for _, want := range []string{`"micro","immediate"`, `"iv1"`, `"iv3"`, `"t20","t30","micro-after-t30"`} {
		if !strings.Contains(got, want) {
			t.Errorf("order %s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "cleared") || strings.Contains(got, "iv4") || !strings.HasPrefix(got, `["micro","immediate"`) {
		t.Errorf("order %s", got)
	}
}

// TestTopLevelAwaitOfATimer: seed 002's scripts await timers at the top
// level; the value of the last expression is the result.
func TestTopLevelAwaitOfATimer(t *testing.T) {
	r := runtime.New(runtime.Config{})
	for lang, src := range map[runtime.Language]string{
		runtime.JavaScript: "await new Promise(resolve => setTimeout(resolve, 30));\nconst v = 21;\nv * 2",
		runtime.TypeScript: "await new Promise<void>(resolve => setTimeout(resolve, 30));\nconst v: number = 21;\nv * 2",
	} {
		start := time.Now()
		rep, err := r.Run(context.Background(), runtime.Request{Source: src, Language: lang})
		if err != nil || string(rep.Result) != "42" || time.Since(start) < 30*time.Millisecond {
			t.Errorf("%s: %v %s after %v", lang, err, rep.Result, time.Since(start))
		}
	}
}

// TestTimersEndWithTheRun: a pending timer past the timeout ends in a
// TimeoutError at the timeout, not when the timer is due; a callback that
// throws fails the run; an interval never cleared runs into the timeout;
// timers are bounded.
func TestTimersEndWithTheRun(t *testing.T) {
	r := runtime.New(runtime.Config{})
	start := time.Now()
	rep, err := r.Run(context.Background(), runtime.Request{Source: `setTimeout(() => {}, 60000)`, Timeout: 200 * time.Millisecond})
	if err == nil || rep.Error.Type != runtime.TypeTimeout || time.Since(start) > 30*time.Second { // not the timer's minute
		t.Fatalf("a minute's timer: %v after %v", err, time.Since(start))
	}
	if r.Abandoned() != 0 {
		t.Fatalf("the run was abandoned instead of stopped")
	}
	rep, err = r.Run(context.Background(), runtime.Request{Source: `setTimeout(() => { throw new Error("late failure") }, 5); "done"`})
	if err == nil || rep.Error.Type != runtime.TypeExecution || !strings.Contains(rep.Error.Message, "late failure") {
		t.Fatalf("a throwing callback: %+v", rep.Error)
	}
	rep, err = r.Run(context.Background(), runtime.Request{Source: `setInterval(() => {}, 1)`, Timeout: 100 * time.Millisecond})
	if err == nil || rep.Error.Type != runtime.TypeTimeout {
		t.Fatalf("an endless interval: %v", err)
	}
	rep, err = r.Run(context.Background(), runtime.Request{Source: `for (let i = 0; i < 20000; i++) setTimeout(() => {}, 1e6)`})
	if err == nil || !strings.Contains(rep.Error.Message, "timers pending") {
		t.Fatalf("unbounded timers: %v", err)
	}
	rep, err = r.Run(context.Background(), runtime.Request{Source: `for (let i = 0; i < 100000; i++) clearTimeout(setTimeout(() => {}, 1e6)); "ok"`})
	if err != nil || string(rep.Result) != `"ok"` {
		t.Fatalf("set and cleared 100k times: %v", err)
	}
	rep, _ = r.Run(context.Background(), runtime.Request{Source: `setTimeout("alert(1)", 1)`})
	if rep.Error == nil || !strings.Contains(rep.Error.Message, "must be a function") {
		t.Fatalf("a string of code: %+v", rep.Error)
	}
}
