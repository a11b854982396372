package lua

import (
	"context"
	"testing"

	"convfiles/runtime"
)

// TestPrintedJSONIsTheResult: seed 002's scripts print their result as
// JSON; with no returned or last-expression value, the last line of
// standard output is the result when it is JSON, in JS and in Lua.
func TestPrintedJSONIsTheResult(t *testing.T) {
	r := runtime.New(runtime.Config{})
	for _, c := range []struct {
		lang     runtime.Language
		src, out string
	}{
		{runtime.JavaScript, `const message = "Hello, World!";
console.log(JSON.stringify({ message }));`, `{"message":"Hello, World!"}`},
		{runtime.TypeScript, `const n: number = 2; console.log(JSON.stringify({ n }, null, 2));`, `null`}, // its last line is "}"
		{runtime.JavaScript, `console.log("[1, 2,\n 3]")`, `null`},
		{runtime.JavaScript, `console.log('{"a": [1, 2]}'); console.error("error text"); console.warn("[]")`, `{"a":[1,2]}`},
		{runtime.JavaScript, `console.log('{"a": 1}'); "the value wins"`, `"the value wins"`},
		{runtime.JavaScript, `console.log('{"a": 1}'); null`, `null`},
		{runtime.JavaScript, `console.log("done")`, `null`},
		{runtime.JavaScript, `console.log('{"a": 1}'); console.log("not JSON")`, `null`},
		{runtime.JavaScript, `for (let i = 0; i < 5000; i++) console.log(JSON.stringify({ i }))`, `{"i":4999}`},
		{runtime.Lua, `print(json.encode({rows = 3}))`, `{"rows":3}`},
		{runtime.Lua, `print(json.encode({rows = 3})); return "returned"`, `"returned"`},
	} {
		rep, err := r.Run(context.Background(), runtime.Request{Source: c.src, Language: c.lang})
		if err != nil || string(rep.Result) != c.out {
			t.Errorf("%s: result %s (%v), want %s", c.src, rep.Result, err, c.out)
		}
	}
}

// TestDenoEnv: seed 002's scripts read Deno.env.get; process.env is the
// same variables. A missing one is undefined.
func TestDenoEnv(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Env: map[string]string{"API_KEY": "secret-123"}, Source: `
console.log(JSON.stringify({ apiKey: Deno.env.get("API_KEY"), missing: typeof Deno.env.get("NOPE"),
  has: Deno.env.has("API_KEY"), all: Deno.env.toObject(), node: process.env.API_KEY }))`})
	want := `{"apiKey":"secret-123","missing":"undefined","has":true,"all":{"API_KEY":"secret-123"},"node":"secret-123"}`
	if err != nil || string(rep.Result) != want {
		t.Fatalf("got %s %v, want %s", rep.Result, err, want)
	}
}
