package js

import (
	"context"
	"strings"
	"testing"

	"convfiles/runtime"
)

// TestAThrowingGetterInTheResultIsTheScripts: a result whose getter
// throws is the script's ExecutionError, saying what threw, not an
// internal error of convfiles; a Promise result is still settled.
func TestAThrowingGetterInTheResultIsTheScripts(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Source: `({ok: 1, get x() { throw new Error("boom in a getter") }})`})
	if err == nil || rep.Error.Type != runtime.TypeExecution || !strings.Contains(rep.Error.Message, "boom in a getter") {
		t.Fatalf("%v %+v", err, rep.Error)
	}
	rep, err = r.Run(context.Background(), runtime.Request{Source: `Promise.resolve(41).then(x => x + 1)`})
	if err != nil || string(rep.Result) != "42" {
		t.Fatalf("a Promise result: %v %s", err, rep.Result)
	}
}
