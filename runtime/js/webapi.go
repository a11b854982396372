package js

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"github.com/dop251/goja_nodejs/require"
	"github.com/dop251/goja_nodejs/url"
)

// webShims are the web platform's classes written in JS over Go helpers
// (utf8 encoding in Go): compiled once, run in a VM on the first use of
// one of their names.
var webShims = goja.MustCompile("convfiles-web.js", `(function (encode, encodeInto, decode) {
  "use strict";
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") { return encode(String(input)); }
    encodeInto(source, destination) {
      if (!(destination instanceof Uint8Array)) throw new TypeError("TextEncoder.encodeInto: the destination must be a Uint8Array");
      return encodeInto(String(source), destination);
    }
  }
  const labels = ["utf-8", "utf8", "unicode-1-1-utf-8"];
  class TextDecoder {
    #fatal; #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      if (!labels.includes(String(label).trim().toLowerCase())) throw new RangeError("TextDecoder: the encoding " + JSON.stringify(String(label)) + " is not supported; only utf-8 is");
      this.#fatal = Boolean(options && options.fatal);
      this.#ignoreBOM = Boolean(options && options.ignoreBOM);
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      if (input === undefined) return "";
      let bytes;
      if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
      else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      else throw new TypeError("TextDecoder.decode: the input must be an ArrayBuffer or a view of one");
      return decode(bytes, this.#fatal, this.#ignoreBOM);
    }
  }
  function structuredClone(value) {
    const seen = new Map();
    const fail = (what) => { const e = new Error(what + " could not be cloned."); e.name = "DataCloneError"; throw e; };
    const clone = (v) => {
      if (v === null || (typeof v !== "object" && typeof v !== "function" && typeof v !== "symbol")) return v;
      if (typeof v === "function") fail("function " + (v.name || "anonymous") + "()");
      if (typeof v === "symbol") fail(String(v));
      if (seen.has(v)) return seen.get(v);
      let out;
      if (Array.isArray(v)) { out = new Array(v.length); seen.set(v, out); for (let i = 0; i < v.length; i++) if (i in v) out[i] = clone(v[i]); return out; }
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (ArrayBuffer.isView(v)) { const C = v.constructor; out = v instanceof DataView ? new DataView(v.buffer.slice(0), v.byteOffset, v.byteLength) : new C(v); }
      else if (v instanceof Map) { out = new Map(); seen.set(v, out); v.forEach((x, k) => out.set(clone(k), clone(x))); return out; }
      else if (v instanceof Set) { out = new Set(); seen.set(v, out); v.forEach((x) => out.add(clone(x))); return out; }
      else if (v instanceof Error) { out = new (globalThis[v.name] || Error)(v.message); if ("stack" in v) out.stack = v.stack; }
      else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
      else if (v instanceof WeakMap || v instanceof WeakSet || v instanceof Promise) fail(Object.prototype.toString.call(v));
      else { out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k]); return out; }
      seen.set(v, out);
      return out;
    }
    return clone(value);
  }
  function queueMicrotask(callback) {
    if (typeof callback !== "function") throw new TypeError("queueMicrotask: the callback must be a function");
    Promise.resolve().then(() => callback());
  }
  return { TextEncoder, TextDecoder, structuredClone, queueMicrotask };
})`, false)

// webNames are the globals webShims defines.
var webNames = []string{"TextEncoder", "TextDecoder", "structuredClone", "queueMicrotask"}

// installWebAPI binds what browsers and Node give scripts beyond the
// language: atob and btoa; TextEncoder, TextDecoder, structuredClone and
// queueMicrotask (webShims); URL and URLSearchParams, and Node's Buffer,
// from goja_nodejs. All but atob and btoa are built on first use.
func (s *session) installWebAPI() {
	s.lazyFunc("atob", s.atob)
	s.lazyFunc("btoa", s.btoa)
	var shims *goja.Object
	for _, name := range webNames {
		s.lazyValue(name, func() goja.Value {
			if shims == nil {
				f, err := s.vm.RunProgram(webShims)
				if err != nil {
					panic(err)
				}
				fn, _ := goja.AssertFunction(f)
				v, err := fn(goja.Undefined(), s.vm.ToValue(s.utf8Encode), s.vm.ToValue(s.utf8EncodeInto), s.vm.ToValue(s.utf8Decode))
				if err != nil {
					panic(err)
				}
				shims = v.ToObject(s.vm)
			}
			return shims.Get(name)
		})
	}
	s.lazyValue("URL", func() goja.Value { return s.nodeModule(url.ModuleName).Get("URL") })
	s.lazyValue("URLSearchParams", func() goja.Value { return s.nodeModule(url.ModuleName).Get("URLSearchParams") })
	s.lazyValue("Buffer", func() goja.Value { return s.guardBuffer(s.nodeModule(buffer.ModuleName).Get("Buffer").ToObject(s.vm)) })
}

// nodeModule loads one of goja_nodejs's core modules (buffer, url) with a
// registry that reads no file: its require is put back to the sandbox's
// own as soon as the module is loaded. A module is loaded once a run.
func (s *session) nodeModule(name string) *goja.Object {
	if m, ok := s.modules[name]; ok {
		return m
	}
	g := s.vm.GlobalObject()
	own := g.Get("require")
	reg := require.NewRegistry(require.WithLoader(func(string) ([]byte, error) { return nil, require.ModuleFileDoesNotExistError }))
	reg.Enable(s.vm)
	defer g.Set("require", own)
	s.vm.Get("Uint8Array") // buffers made from here on are of guarded constructors
	m := require.Require(s.vm, name).ToObject(s.vm)
	if s.modules == nil {
		s.modules = map[string]*goja.Object{}
	}
	s.modules[name] = m
	return m
}

// utf8Encode is TextEncoder.encode's: the UTF-8 of s, lone surrogates as
// U+FFFD, in a Uint8Array.
func (s *session) utf8Encode(call goja.FunctionCall) goja.Value {
	return s.bytesValue(true, []byte(strings.ToValidUTF8(call.Argument(0).String(), "\uFFFD")))
}

// utf8EncodeInto is TextEncoder.encodeInto's: as many whole characters of
// source as fit in destination → {read (UTF-16 units), written (bytes)}.
func (s *session) utf8EncodeInto(source string, dest goja.Value) map[string]int {
	buf, ok := s.bufferBytes(dest.ToObject(s.vm))
	if !ok {
		s.throw("TypeError", "TextEncoder.encodeInto: the destination must be a Uint8Array")
	}
	read, written := 0, 0
	for _, r := range strings.ToValidUTF8(source, "\uFFFD") {
		n := utf8.RuneLen(r)
		if written+n > len(buf) {
			break
		}
		utf8.EncodeRune(buf[written:], r)
		written += n
		read++
		if r > 0xFFFF {
			read++
		}
	}
	return map[string]int{"read": read, "written": written}
}

// utf8Decode is TextDecoder.decode's: invalid bytes become U+FFFD, or, when
// fatal, a TypeError; a leading BOM is dropped unless ignoreBOM.
func (s *session) utf8Decode(call goja.FunctionCall) goja.Value {
	b, _ := s.bufferBytes(call.Argument(0).ToObject(s.vm))
	fatal, ignoreBOM := call.Argument(1).ToBoolean(), call.Argument(2).ToBoolean()
	if fatal && !utf8.Valid(b) {
		s.throw("TypeError", "TextDecoder.decode: the input is not valid UTF-8")
	}
	text := strings.ToValidUTF8(string(b), "\uFFFD")
	if !ignoreBOM {
		text = strings.TrimPrefix(text, "\uFEFF")
	}
	return s.vm.ToValue(text)
}

// btoa is the web's: the base64 of a string of characters up to U+00FF.
func (s *session) btoa(call goja.FunctionCall) goja.Value {
	if len(call.Arguments) == 0 {
		s.throw("TypeError", "btoa: 1 argument required")
	}
	str := call.Argument(0).String()
	b := make([]byte, 0, len(str))
	for _, r := range str {
		if r > 0xFF {
			s.throw("InvalidCharacterError", "btoa: the string has characters outside of Latin1 (U+0000 to U+00FF); encode it as UTF-8 first, with TextEncoder")
		}
		b = append(b, byte(r))
	}
	return s.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

// atob is the web's forgiving base64 decoder: white space is ignored and
// padding optional; each byte becomes one character.
func (s *session) atob(call goja.FunctionCall) goja.Value {
	if len(call.Arguments) == 0 {
		s.throw("TypeError", "atob: 1 argument required")
	}
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, call.Argument(0).String())
	if len(clean)%4 == 0 {
		clean = strings.TrimSuffix(strings.TrimSuffix(clean, "="), "=")
	}
	b, err := base64.RawStdEncoding.DecodeString(clean)
	if err != nil || len(clean)%4 == 1 {
		s.throw("InvalidCharacterError", "atob: the string is not valid base64")
	}
	runes := make([]rune, len(b))
	for i, c := range b {
		runes[i] = rune(c)
	}
	return s.vm.ToValue(string(runes))
}
