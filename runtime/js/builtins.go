package js

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"convfiles/files"
)

// Size caps on single built-in calls. goja allocates the whole result of
// "x".repeat(n) or new ArrayBuffer(n) at once, and an allocation larger than
// the machine's memory ends the process before any watchdog can act; some
// built-ins (Array.prototype.fill, join) also loop in Go without checking
// for interrupts. These caps refuse such calls up front with the RangeError
// a browser would give.
const (
	MaxStringLength = 1 << 28 // characters in one string made by repeat/padStart/padEnd
	MaxBufferBytes  = 1 << 28 // bytes in one ArrayBuffer or typed array
	MaxArrayLength  = 1 << 24 // length of an array made by Array(n)
)

// sizePrelude wraps the size-driven constructors, in a process that
// must outlive its scripts (see Config.Contained). It is compiled once and
// run in every such VM. A wrapper shares its constructor's prototype (so
// instanceof, subclassing and .constructor behave as before) and inherits
// its static methods (Array.isArray, Uint8Array.from). Array is wrapped at
// once; the prelude returns the function that wraps ArrayBuffer and the
// typed arrays, which installGuards defers to the first read of one of
// their names (see guardTypedLazily).
var sizePrelude = goja.MustCompile("convfiles-sizes.js", fmt.Sprintf(`(function (g) {
  var maxBuf = %d, maxArr = %d;
  function tooBig(what, n, max) {
    return new RangeError(what + " of " + n + " is over the sandbox limit of " + max);
  }
  function wrap(name, C, check) {
    var W = function () {
      check(arguments);
      var args = Array.prototype.slice.call(arguments);
      if (new.target === undefined) return C.apply(this, args);
      return Reflect.construct(C, args, new.target === W ? C : new.target);
    };
    Object.setPrototypeOf(W, C);
    Object.defineProperty(W, "prototype", { value: C.prototype });
    Object.defineProperty(W, "name", { value: name });
    Object.defineProperty(C.prototype, "constructor", { value: W, writable: true, configurable: true });
    Object.defineProperty(g, name, { value: W, writable: true, configurable: true });
  }
  wrap("Array", g.Array, function (a) {
    if (a.length === 1 && typeof a[0] === "number" && a[0] > maxArr) throw tooBig("Array length", a[0], maxArr);
  });
  var typed = { ArrayBuffer: 1, Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1, Int16Array: 2,
    Uint16Array: 2, Int32Array: 4, Uint32Array: 4, Float32Array: 4, Float64Array: 8,
    BigInt64Array: 8, BigUint64Array: 8 };
  // originals holds the constructors by name, read before the names
  // became accessors.
  return function (originals) {
    Object.keys(typed).forEach(function (name) {
      var per = typed[name], C = originals[name];
      if (!C) return;
      wrap(name, C, function (a) {
        if (typeof a[0] === "number" && a[0] * per > maxBuf) throw tooBig(name + " size", a[0] * per + " bytes", maxBuf + " bytes");
      });
    });
  };
})`, MaxBufferBytes, MaxArrayLength), false)

// generatorGuard routes the generator and async function constructors
// through check, as guardCompilers does Function. They are reached only
// through a function of their kind, so it runs on demand (see
// mayReachGenerators and checkSource).
var generatorGuard = goja.MustCompile("convfiles-generators.js", `(function (check) {
  function wrapCompiler(C, name) {
    var W = function () {
      var args = Array.prototype.map.call(arguments, String);
      check(args.join(","));
      return Reflect.construct(C, args, new.target === undefined || new.target === W ? C : new.target);
    };
    Object.setPrototypeOf(W, C);
    Object.defineProperty(W, "prototype", { value: C.prototype });
    Object.defineProperty(W, "name", { value: name });
    Object.defineProperty(C.prototype, "constructor", { value: W, writable: false, configurable: true });
  }
  wrapCompiler(Object.getPrototypeOf(function* () {}).constructor, "GeneratorFunction");
  wrapCompiler(Object.getPrototypeOf(async function () {}).constructor, "AsyncFunction");
})`, false)

// mayReachGenerators reports whether the JavaScript src could make a
// generator or async function, through which the script reaches their
// constructors: only their syntax makes one (function*, a *method, async,
// a top-level await the compiler wraps in an async function), so a script
// without a "*", "async" or "await" cannot. Code compiled at run time is
// checked first (checkSource), which guards the constructors then.
func mayReachGenerators(src string) bool {
	return strings.Contains(src, "*") || strings.Contains(src, "async") || strings.Contains(src, "await")
}

// typedNames are the globals whose constructors allocate a buffer of a
// size the script chooses.
var typedNames = []string{"ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array",
	"Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

// guardTypedLazily makes each name of typedNames an accessor whose first
// read wraps all of them at once, before any is handed out: from one
// typed array a script reaches its ArrayBuffer's constructor, so none may
// stay unwrapped once one is reachable. Go code that makes a buffer for
// the script reads the constructor through the global, which wraps them
// too. Assigning to a name replaces it, as for any global.
func (s *session) guardTypedLazily(wrapTyped goja.Callable) {
	g := s.vm.GlobalObject()
	originals := s.vm.NewObject()
	wrapped := false
	wrapAll := func() {
		if wrapped {
			return
		}
		wrapped = true
		if _, err := wrapTyped(goja.Undefined(), originals); err != nil {
			panic(err)
		}
	}
	for _, name := range typedNames {
		originals.Set(name, g.Get(name))
		get := s.vm.ToValue(func(goja.FunctionCall) goja.Value {
			wrapAll()
			return g.Get(name)
		})
		set := s.vm.ToValue(func(call goja.FunctionCall) goja.Value {
			wrapAll()
			g.DefineDataProperty(name, call.Argument(0), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
			return goja.Undefined()
		})
		g.DefineAccessorProperty(name, get, set, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// installGuards guards the compilers always (guardCompilers), and the
// sizes (the string built-ins capped in Go, cheaper than a JS wrapper, and
// the constructors) unless the process is contained. The generator and
// async function constructors are guarded before the script runs when it
// could reach them, else when it first compiles code at run time.
func (s *session) installGuards(src string) {
	sizes := !s.Cfg.Contained
	s.guardStrings(sizes)
	s.guardCompilers()
	if mayReachGenerators(src) {
		s.wrapGenerators()
	}
	if !sizes {
		return
	}
	prelude, err := s.vm.RunProgram(sizePrelude)
	if err != nil {
		panic(err)
	}
	install, _ := goja.AssertFunction(prelude)
	wrapTyped, err := install(goja.Undefined(), s.vm.GlobalObject())
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(wrapTyped)
	s.guardTypedLazily(fn)
}

// wrapGenerators runs generatorGuard, once.
func (s *session) wrapGenerators() {
	if s.generatorsGuarded {
		return
	}
	s.generatorsGuarded = true
	v, err := s.vm.RunProgram(generatorGuard)
	if err == nil {
		fn, _ := goja.AssertFunction(v)
		_, err = fn(goja.Undefined(), s.vm.ToValue(s.checkSource))
	}
	if err != nil {
		panic(err)
	}
}

// guardCompilers routes the code a script compiles at run time through
// checkSource, which applies the nesting and size caps the compiler
// applies to scripts: a parser recursing without end would take the
// process down. eval becomes an indirect eval (the global scope). The
// Function wrapper shares Function's prototype, so instanceof,
// .constructor and subclassing behave as before. In Go rather than JS: a
// JS prelude doing the same took 12 µs of every run.
func (s *session) guardCompilers() {
	g := s.vm.GlobalObject()
	evalOrig, _ := goja.AssertFunction(g.Get("eval"))
	eval := s.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		src := call.Argument(0)
		if goja.IsString(src) {
			s.checkSource(goja.FunctionCall{Arguments: []goja.Value{src}})
		}
		v, err := evalOrig(goja.Undefined(), src)
		if err != nil {
			panic(err)
		}
		return v
	}).ToObject(s.vm)
	eval.DefineDataProperty("name", s.vm.ToValue("eval"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	g.DefineDataProperty("eval", eval, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)

	fn := g.Get("Function").ToObject(s.vm)
	construct, _ := goja.AssertConstructor(fn)
	var w *goja.Object
	w = s.vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
		parts := make([]string, len(call.Arguments))
		args := make([]goja.Value, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = a.String()
			args[i] = s.vm.ToValue(parts[i])
		}
		s.checkSource(goja.FunctionCall{Arguments: []goja.Value{s.vm.ToValue(strings.Join(parts, ","))}})
		target := call.NewTarget
		if target == nil || target == w {
			target = fn
		}
		o, err := construct(target, args...)
		if err != nil {
			panic(err)
		}
		return o
	}).ToObject(s.vm)
	w.SetPrototype(fn)
	proto := fn.Get("prototype")
	w.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	w.DefineDataProperty("name", s.vm.ToValue("Function"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	proto.ToObject(s.vm).DefineDataProperty("constructor", w, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	g.DefineDataProperty("Function", w, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// guardStrings caps what repeat, padStart and padEnd may make, when
// sizes is set, and gives repeat a fast path either way: goja builds
// "x".repeat(n) one piece at a time, which took a 1 MiB string 2 ms.
func (s *session) guardStrings(sizes bool) {
	proto := s.vm.Get("String").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	wrap := func(name string, size func(call goja.FunctionCall, this int64) int64, fast func(call goja.FunctionCall) goja.Value) {
		orig, _ := goja.AssertFunction(proto.Get(name))
		proto.Set(name, func(call goja.FunctionCall) goja.Value {
			if sizes {
				this := int64(len(call.This.String()))
				if n := size(call, this); n > MaxStringLength {
					s.throw("RangeError", fmt.Sprintf("Invalid string length: %s would make %d characters, over the sandbox limit of %d", name, n, MaxStringLength))
				}
			}
			if fast != nil {
				if v := fast(call); v != nil {
					return v
				}
			}
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
	wrap("repeat", func(call goja.FunctionCall, this int64) int64 {
		n := call.Argument(0).ToFloat()
		if n > float64(MaxStringLength)+1 {
			return MaxStringLength + 1
		}
		return this * int64(n)
	}, s.repeatASCII)
	pad := func(call goja.FunctionCall, _ int64) int64 {
		n := call.Argument(0).ToFloat()
		if n > float64(MaxStringLength) {
			return MaxStringLength + 1
		}
		return int64(n)
	}
	if sizes {
		wrap("padStart", pad, nil)
		wrap("padEnd", pad, nil)
	}
}

// repeatASCII is String.prototype.repeat for a string primitive of ASCII
// and a whole count, in one allocation; nil leaves the rest (and every
// error) to goja's own.
func (s *session) repeatASCII(call goja.FunctionCall) goja.Value {
	if !goja.IsString(call.This) {
		return nil
	}
	n := call.Argument(0).ToFloat()
	if n < 0 || n != float64(int64(n)) || n > float64(1<<40) {
		return nil
	}
	str := call.This.String()
	for i := 0; i < len(str); i++ {
		if str[i] >= 0x80 {
			return nil
		}
	}
	if int64(len(str))*int64(n) > 1<<31 {
		return nil
	}
	return s.vm.ToValue(strings.Repeat(str, int(n)))
}

// checkSource applies the compiler's caps to code compiled at run time,
// and guards the generator and async function constructors before such
// code can make one.
func (s *session) checkSource(call goja.FunctionCall) goja.Value {
	s.wrapGenerators()
	src := call.Argument(0).String()
	if len(src) > MaxEvalBytes {
		s.throw("RangeError", fmt.Sprintf("code to compile is %s, over the sandbox limit of %s", files.FormatBytes(int64(len(src))), files.FormatBytes(MaxEvalBytes)))
	}
	if err := checkNesting(src, MaxNesting); err != nil {
		s.throw("SyntaxError", err.Error())
	}
	return goja.Undefined()
}
