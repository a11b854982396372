package runtime

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"convfiles/content"
	"convfiles/files"
)

// Lua's value stack (the registry) starts small and may grow to this
// many slots; with the call depth (Config.MaxCallStack, as for JS) it
// bounds what a runaway recursion takes before it fails cleanly.
const (
	luaRegistryMax  = 1 << 20
	luaRegistryInit = 1 << 10
)

// luaSession is one Lua run: a fresh gopher-lua state with the sandboxed
// libraries and convfiles' helpers, over the run's state.
type luaSession struct {
	runState
	L   *lua.LState
	env map[string]string
	// contents remembers the content tables read_file made, so write_file
	// saves one without a trip through text.
	contents map[*lua.LTable]content.Content
	// hit is the limit that stopped the run, if one did.
	hit atomic.Pointer[limitHit]
}

// runLua runs a Lua script with the same limits and the same report as a
// JavaScript one: the timeout and the memory watchdog cancel the state's
// context, which gopher-lua checks between instructions.
func (r *Runner) runLua(ctx context.Context, req Request, timeout time.Duration) (*Report, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &luaSession{runState: newRunState(runCtx, r.cfg, req.Space, req.Session), env: req.Env,
		contents: map[*lua.LTable]content.Content{}}
	out := r.supervise(ctx, timeout, func(h *limitHit) {
		s.hit.CompareAndSwap(nil, h)
		cancel()
	}, func(done chan<- outcome) { s.execute(req.Filename, req.Source, done) })
	return s.report(out)
}

// execute compiles and runs the chunk on its own goroutine and turns
// every way it can end into an outcome.
func (s *luaSession) execute(filename, src string, done chan<- outcome) {
	defer func() {
		if p := recover(); p != nil {
			s.closeHandles(false)
			s.cfg.Logger.Error("Lua script panicked inside convfiles", "panic", p, "stack", string(debug.Stack()))
			done <- outcome{err: &ScriptError{Type: TypeInternal, Message: "internal error while running the script"}}
		}
	}()
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: s.cfg.MaxCallStack,
		RegistrySize: luaRegistryInit, RegistryMaxSize: luaRegistryMax, MinimizeStackMemory: true})
	defer L.Close()
	s.L = L
	L.SetContext(s.ctx)
	if err := s.install(); err != nil {
		done <- outcome{err: &ScriptError{Type: TypeInternal, Message: "internal error while preparing the script: " + err.Error()}}
		return
	}
	fn, err := L.Load(strings.NewReader(src), filename)
	if err != nil {
		done <- outcome{err: luauHint(src, luaSyntaxError(err))}
		return
	}
	base := L.GetTop()
	L.Push(fn)
	if err := L.PCall(0, lua.MultRet, nil); err != nil {
		s.closeHandles(false)
		done <- outcome{err: s.runError(err)}
		return
	}
	res, serr := s.exportResults(L, base)
	s.closeHandles(serr == nil)
	done <- outcome{result: res, err: serr}
}

// exportResults turns what the chunk returned into the report's JSON: its
// one value, an array of several, null for none.
func (s *luaSession) exportResults(L *lua.LState, base int) ([]byte, *ScriptError) {
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
		return nil, &ScriptError{Type: TypeExecution, Message: "the result cannot be turned into JSON: " + err.Error()}
	}
	out, err := encodeJSON(v, false)
	if err != nil {
		return nil, &ScriptError{Type: TypeExecution, Message: "the result cannot be turned into JSON: " + err.Error()}
	}
	if len(out) > s.cfg.MaxResultBytes {
		return nil, &ScriptError{Type: TypeLimit, Limit: "result_size", Message: fmt.Sprintf(
			"the result is %s of JSON and the limit is %s: write large output to a file with write_file and return its link",
			files.FormatBytes(int64(len(out))), files.FormatBytes(int64(s.cfg.MaxResultBytes)))}
	}
	return out, nil
}

// luaSyntaxPos finds the line and column gopher-lua's parser reports.
var luaSyntaxPos = regexp.MustCompile(`line:(\d+)\(column:(\d+)\)`)

// luaSyntaxError turns a failed Load into a SyntaxError with its place.
func luaSyntaxError(err error) *ScriptError {
	msg := strings.TrimSpace(err.Error())
	se := &ScriptError{Type: TypeSyntax, Message: msg}
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
func (s *luaSession) runError(err error) *ScriptError {
	if h := s.hit.Load(); h != nil {
		return h.scriptError()
	}
	msg := err.Error()
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		if ae.Object != nil {
			msg = s.L.ToStringMeta(ae.Object).String()
		}
		if strings.Contains(msg, "stack overflow") || strings.Contains(msg, "registry overflow") {
			return &ScriptError{Type: TypeLimit, Limit: "call_stack", Message: "the script nested calls too deeply (at most " +
				strconv.Itoa(s.cfg.MaxCallStack) + " levels) and was stopped: " + msg}
		}
		return &ScriptError{Type: TypeExecution, Message: msg, Stack: ae.StackTrace}
	}
	return &ScriptError{Type: TypeExecution, Message: msg}
}

// lintLua reports the syntax error of a Lua script, if it has one.
func lintLua(filename, src string) []Diagnostic {
	if _, err := parse.Parse(strings.NewReader(src), filename); err != nil {
		se := luauHint(src, luaSyntaxError(err))
		return []Diagnostic{{Line: max(se.Line, 1), Column: max(se.Column, 1), Message: se.Message, Severity: "error"}}
	}
	return []Diagnostic{}
}
