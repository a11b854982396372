package lua

import (
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"convfiles/content"
	"convfiles/files"
	"convfiles/internal/lru"
	"convfiles/runtime"
	"convfiles/runtime/lua/luau"
)

// Lua's value stack (the registry) starts small (a hello world uses a
// few dozen slots; 4 KiB, where 1,024 slots were a third of what a run
// allocated) and may grow, a step of at least luaRegistryStep slots at
// a time, to luaRegistryMax; with the call depth (Config.MaxCallStack,
// as for JS) it bounds what a runaway recursion takes before it fails
// cleanly.
const (
	luaRegistryMax  = 1 << 20
	luaRegistryInit = 1 << 8
	luaRegistryStep = 1 << 10
)

func init() {
	runtime.Register(func(runtime.Config) runtime.Interpreter { return interpreter{} }, runtime.Lua)
}

// interpreter runs Lua and Luau-style scripts in gopher-lua, with the
// same limits and the same report as JavaScript: the timeout and the
// memory watchdog cancel the state's context, which gopher-lua checks
// between instructions.
type interpreter struct{}

func (interpreter) Start(run *runtime.Run, req runtime.Request) runtime.Script {
	return &luaSession{Run: run, env: req.Env, filename: req.Filename, src: req.Source,
		contents: map[*lua.LTable]content.Content{}}
}

func (interpreter) Lint(filename, src string) []runtime.Diagnostic { return lintLua(filename, src) }

// luaSession is one Lua run: a fresh gopher-lua state with the sandboxed
// libraries and convfiles' helpers, over the run's state.
type luaSession struct {
	*runtime.Run
	L   *lua.LState
	env map[string]string
	// lazy are the libraries not made yet, by global name (lazylibs.go).
	lazy          map[string]*lazyLib
	filename, src string
	// contents remembers the content tables read_file made, so write_file
	// saves one without a trip through text.
	contents map[*lua.LTable]content.Content
	// frozen are the tables table.freeze froze.
	frozen map[*lua.LTable]bool
	// held are the open handles, for collectgarbage to close those the
	// script dropped.
	held []heldHandle
	// hit is the limit that stopped the run, if one did.
	hit atomic.Pointer[runtime.LimitHit]
}

// Stop records the limit that ends the run (see runtime.Script).
func (s *luaSession) Stop(h *runtime.LimitHit) { s.hit.CompareAndSwap(nil, h) }

// Execute runs the script (see runtime.Script).
func (s *luaSession) Execute(done chan<- runtime.Outcome) { s.execute(s.filename, s.src, done) }

// execute compiles and runs the chunk on its own goroutine and turns
// every way it can end into an outcome.
func (s *luaSession) execute(filename, src string, done chan<- runtime.Outcome) {
	defer func() {
		if p := recover(); p != nil {
			s.CloseHandles(false)
			s.Cfg.Logger.Error("Lua script panicked inside convfiles", "panic", p, "stack", string(debug.Stack()))
			done <- runtime.Outcome{Err: &runtime.ScriptError{Type: runtime.TypeInternal, Message: "internal error while running the script"}}
		}
	}()
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: s.Cfg.MaxCallStack,
		RegistrySize: luaRegistryInit, RegistryMaxSize: luaRegistryMax, RegistryGrowStep: luaRegistryStep, MinimizeStackMemory: true})
	defer L.Close()
	s.L = L
	L.SetContext(s.Ctx)
	if err := s.install(); err != nil {
		done <- runtime.Outcome{Err: &runtime.ScriptError{Type: runtime.TypeInternal, Message: "internal error while preparing the script: " + err.Error()}}
		return
	}
	fn, serr := load(L, filename, src)
	if serr != nil {
		done <- runtime.Outcome{Err: serr}
		return
	}
	base := L.GetTop()
	L.Push(fn)
	if err := L.PCall(0, lua.MultRet, nil); err != nil {
		s.CloseHandles(false)
		done <- runtime.Outcome{Err: s.runError(err)}
		return
	}
	res, serr := s.exportResults(L, base)
	s.CloseHandles(serr == nil)
	done <- runtime.Outcome{Result: res, Err: serr}
}

// exportResults turns what the chunk returned into the report's JSON: its
// one value, an array of several, null for none.
func (s *luaSession) exportResults(L *lua.LState, base int) ([]byte, *runtime.ScriptError) {
	n := L.GetTop() - base
	if n == 0 {
		return nil, nil
	}
	var v any
	var err error
	if n == 1 {
		v, err = luaToGo(L.Get(base+1), 0)
	} else {
		all := make([]any, n)
		for i := range n {
			if all[i], err = luaToGo(L.Get(base+1+i), 0); err != nil {
				break
			}
		}
		v = all
	}
	if err != nil {
		return nil, &runtime.ScriptError{Type: runtime.TypeExecution, Message: "the result cannot be turned into JSON: " + err.Error()}
	}
	out, err := encodeJSON(v, false)
	if err != nil {
		return nil, &runtime.ScriptError{Type: runtime.TypeExecution, Message: "the result cannot be turned into JSON: " + err.Error()}
	}
	if len(out) > s.Cfg.MaxResultBytes {
		return nil, &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "result_size", Message: fmt.Sprintf(
			"the result is %s of JSON and the limit is %s: write large output to a file with write_file and return its link",
			files.FormatBytes(int64(len(out))), files.FormatBytes(int64(s.Cfg.MaxResultBytes)))}
	}
	return out, nil
}

// luaSyntaxPos finds the line and column gopher-lua's parser reports.
var luaSyntaxPos = regexp.MustCompile(`line:(\d+)\(column:(\d+)\)`)

// luaSyntaxError turns a failed Load into a SyntaxError with its place.
func luaSyntaxError(err error) *runtime.ScriptError {
	msg := strings.TrimSpace(err.Error())
	se := &runtime.ScriptError{Type: runtime.TypeSyntax, Message: msg}
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		se.Message = strings.TrimSpace(ae.Object.String())
	}
	if m := luaSyntaxPos.FindStringSubmatch(se.Message); m != nil {
		se.Line, _ = strconv.Atoi(m[1])
		se.Column, _ = strconv.Atoi(m[2])
	}
	return se
}

// runError turns a failed run into its ScriptError: the limit that
// stopped it, or the error the script raised and did not catch.
func (s *luaSession) runError(err error) *runtime.ScriptError {
	if h := s.hit.Load(); h != nil {
		return h.ScriptError()
	}
	msg := err.Error()
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		if ae.Object != nil {
			msg = s.L.ToStringMeta(ae.Object).String()
		}
		if strings.Contains(msg, "stack overflow") || strings.Contains(msg, "registry overflow") {
			return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "call_stack", Message: "the script nested calls too deeply (at most " +
				strconv.Itoa(s.Cfg.MaxCallStack) + " levels) and was stopped: " + msg}
		}
		return &runtime.ScriptError{Type: runtime.TypeExecution, Message: msg, Stack: ae.StackTrace}
	}
	return &runtime.ScriptError{Type: runtime.TypeExecution, Message: msg}
}

// lintLua reports the syntax error of a Lua or Luau script, if it has one.
func lintLua(filename, src string) []runtime.Diagnostic {
	lowered, err := lower(filename, src)
	if err == nil {
		_, perr := parse.Parse(strings.NewReader(lowered), filename)
		if perr != nil {
			err = luaSyntaxError(perr)
		}
	}
	if err != nil {
		return []runtime.Diagnostic{{Line: max(err.Line, 1), Column: max(err.Column, 1), Message: err.Message, Severity: "error"}}
	}
	return []runtime.Diagnostic{}
}

// load compiles a Lua or Luau script: lowered to Lua 5.1 first, each
// token on its line, so every error names the user's line.
func load(L *lua.LState, filename, src string) (*lua.LFunction, *runtime.ScriptError) {
	key := filename + "\x00" + src
	if c, ok := compiled.Get(key); ok {
		return L.NewFunctionFromProto(c.proto), nil
	}
	lowered, serr := lower(filename, src)
	if serr != nil {
		return nil, serr
	}
	chunk, err := parse.Parse(strings.NewReader(lowered), filename)
	if err != nil {
		return nil, luaSyntaxError(&lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err})
	}
	proto, err := lua.Compile(chunk, filename)
	if err != nil {
		return nil, luaSyntaxError(&lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err})
	}
	compiled.Put(key, compiledChunk{proto, int64(len(key))})
	return L.NewFunctionFromProto(proto), nil
}

// compiled keeps the byte code of the chunks run last, by name and
// source: a script run again is neither lowered, parsed nor compiled.
// Byte code is read only, so one serves every Lua state (gopher-lua
// shares it so by design). At most 512 chunks of 16 MiB of sources in
// all are kept.
var compiled = lru.New(16<<20, 512, func(c compiledChunk) int64 { return c.size })

// compiledChunk is a chunk's byte code and the size of its source.
type compiledChunk struct {
	proto *lua.FunctionProto
	size  int64
}

// lower turns a script into the Lua 5.1 gopher-lua runs. A script the
// lowering refuses that is valid Lua 5.1 as it is (a construct it does
// not know) runs as it is; otherwise its error is the lowering's, which
// knows Luau.
func lower(filename, src string) (string, *runtime.ScriptError) {
	out, err := luau.Lower(src)
	if err == nil {
		return out, nil
	}
	if _, perr := parse.Parse(strings.NewReader(src), filename); perr == nil {
		return src, nil
	}
	se := &runtime.ScriptError{Type: runtime.TypeSyntax, Message: err.Error()}
	var le *luau.Error
	if errors.As(err, &le) {
		se.Line, se.Column = le.Line, le.Column
		se.Message = filename + ":" + le.Error()
	}
	return "", se
}
