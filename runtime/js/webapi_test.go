package js

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"convfiles/runtime"
)

// TestWebPlatformGlobals: what helpers hand out (base64, bytes) can be
// handled with the web's own tools, as in a browser or Node.
func TestWebPlatformGlobals(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Source: `
const enc = new TextEncoder();
const bytes = enc.encode("héllo 🚀");
const into = new Uint8Array(4);
const partial = enc.encodeInto("é🚀", into);
const dec = new TextDecoder();
let fatal = "";
try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff])) } catch (e) { fatal = e.name }
let latin = "";
try { btoa("🚀") } catch (e) { latin = e.name }
const u = new URL("https://example.com:8443/a/b?x=1&y=two#frag");
u.searchParams.append("z", "3");
const clone = structuredClone({ d: new Date(0), m: new Map([[1, { s: new Set([2]) }]]), a: [1, , 3], u8: new Uint8Array([1, 2]) });
const cyc = { name: "loop" }; cyc.self = cyc;
const cycClone = structuredClone(cyc);
let notCloneable = "";
try { structuredClone({ f() {} }) } catch (e) { notCloneable = e.name }
const order = [];
queueMicrotask(() => order.push("micro"));
order.push("sync");
await Promise.resolve();
const buf = Buffer.from("hello");
({
  bytes: Array.from(bytes), decoded: dec.decode(bytes), bom: dec.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])),
  partial, fatal, latin,
  b64: btoa("hi\u00ff"), unb64: atob(" aGk=\n"), unb64NoPad: atob("aGk"),
  url: [u.hostname, u.port, u.pathname, u.search, u.hash, u.searchParams.get("y"), u.href],
  params: new URLSearchParams("a=1&b=2").toString(),
  clone: [clone.d instanceof Date, clone.d.getTime(), clone.m.get(1).s.has(2), 1 in clone.a, clone.a.length, clone.u8 instanceof Uint8Array, clone.u8[1]],
  cyc: cycClone.self === cycClone && cycClone !== cyc, notCloneable, order,
  buffer: [buf.toString("base64"), buf.length, Buffer.isBuffer(buf), buf instanceof Uint8Array, Buffer.concat([buf, Buffer.from([33])]).toString()],
})`})
	if err != nil {
		t.Fatalf("%v\n%v", err, rep.Logs)
	}
	var got map[string]any
	json.Unmarshal(rep.Result, &got)
	want := map[string]string{
		"bytes":        "[104 195 169 108 108 111 32 240 159 154 128]",
		"decoded":      "héllo 🚀",
		"bom":          "A",
		"partial":      "map[read:1 written:2]",
		"fatal":        "TypeError",
		"latin":        "InvalidCharacterError",
		"b64":          "aGn/",
		"unb64":        "hi",
		"unb64NoPad":   "hi",
		"url":          "[example.com 8443 /a/b ?x=1&y=two&z=3 #frag two https://example.com:8443/a/b?x=1&y=two&z=3#frag]",
		"params":       "a=1&b=2",
		"clone":        "[true 0 true false 3 true 2]",
		"cyc":          "true",
		"notCloneable": "DataCloneError",
		"order":        "[sync micro]",
		"buffer":       "[aGVsbG8= 5 true true hello!]",
	}
	for k, w := range want {
		if g := strings.TrimSpace(fmtAny(got[k])); g != w {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
}

// TestBufferSizesAreBounded: Buffer's Go code allocates what it is asked
// for at once; in a process that must outlive its scripts, sizes over
// the typed-array limit are refused first.
func TestBufferSizesAreBounded(t *testing.T) {
	r := runtime.New(runtime.Config{})
	for _, src := range []string{`Buffer.alloc(2 ** 40)`, `Buffer.allocUnsafe(1e12)`, `Buffer.from({ length: 1e12 })`,
		`const b = Buffer.alloc(1 << 20); Buffer.concat(new Array(1000).fill(b))`, `Buffer.concat([Buffer.alloc(1)], 1e12)`} {
		rep, err := r.Run(context.Background(), runtime.Request{Source: src})
		if err == nil || !strings.Contains(rep.Error.Message, "over the sandbox limit") {
			t.Errorf("%s: %v", src, err)
		}
	}
	rep, err := r.Run(context.Background(), runtime.Request{Source: `typeof require("fs")`})
	if err == nil || !strings.Contains(rep.Error.Message, "modules are not available") {
		t.Errorf("require after Buffer: %+v", rep.Error)
	}
	rep, err = r.Run(context.Background(), runtime.Request{Source: `Buffer.from("x"); let m = ""; try { require("./secret.js") } catch (e) { m = e.message } m`})
	if err != nil || !strings.Contains(string(rep.Result), "modules are not available") {
		t.Errorf("require once Buffer was loaded: %v %s", err, rep.Result)
	}
}

// fmtAny prints a decoded JSON value as fmt does, without decimals on
// whole numbers.
func fmtAny(v any) string {
	switch v := v.(type) {
	case float64:
		if v == float64(int64(v)) {
			return strconv.FormatInt(int64(v), 10)
		}
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = fmtAny(x)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + fmtAny(v[k])
		}
		return "map[" + strings.Join(parts, " ") + "]"
	}
	return fmt.Sprint(v)
}
