package js

import (
	"fmt"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"convfiles/files"
	"convfiles/runtime"
)

// session is the state of one run: its VM, its Space, its logs, its budget
// and what it touched. Nothing in it outlives the run.
type session struct {
	*runtime.Run
	compiler *compiler
	lang     runtime.Language
	// src is the script's source, read by installGuards; filename names
	// it in stack traces.
	src, filename string
	env           map[string]string
	vm            *goja.Runtime
	// contentKey marks the content objects this run made (see contentRef),
	// so write_file can save one without a round trip through base64.
	contentKey *goja.Symbol
	// handleKey marks io handles (runState tracks them).
	handleKey *goja.Symbol
	// stringify is JSON.stringify with its depth guard, as installed
	// before the script ran: the run's result is made with it.
	stringify func(goja.FunctionCall) goja.Value
	// generatorsGuarded says the generator and async function
	// constructors are guarded (see wrapGenerators).
	generatorsGuarded bool
	// lazy makes the helpers on their first use.
	lazy *lazyGlobals
	// modules are the goja_nodejs modules loaded (see nodeModule).
	modules map[string]*goja.Object
	// timers is the run's event loop (setTimeout and friends).
	timers *timerLoop
	// stopped is the limit that stopped the run, once one has.
	stopped atomic.Pointer[runtime.LimitHit]
}

// stopReason is why the run was stopped: the limit it hit, or its
// context's end.
func (s *session) stopReason() error {
	if hit := s.stopped.Load(); hit != nil {
		return hit
	}
	return s.Ctx.Err()
}

func newSession(run *runtime.Run) *session {
	vm := goja.New()
	vm.SetMaxCallStackSize(run.Cfg.MaxCallStack)
	// eval and new Function parse with these: a sourceMappingURL comment
	// in their code must never make the process open a host path.
	vm.SetParserOptions(parser.WithDisableSourceMaps)
	return &session{Run: run, vm: vm}
}

func (s *session) install() {
	s.contentKey = goja.NewSymbol("convfiles.content")
	s.handleKey = goja.NewSymbol("convfiles.handle")
	s.installLazyGlobals()
	s.installGuards(s.src)
	s.installJSONGuards()
	s.installConsole()
	s.installProcess()
	s.installSABRE()
	s.installIO()
	s.installFilesAPI()
	s.installTimers()
	s.installWebAPI()
}

// exportResult turns the script's value into JSON with JS semantics
// (toJSON, functions dropped), refusing results over the size cap.
func (s *session) exportResult(v goja.Value) ([]byte, *runtime.ScriptError) {
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	var out []byte
	err := s.guardCall(func() {
		r := s.stringify(goja.FunctionCall{This: goja.Undefined(), Arguments: []goja.Value{v}})
		if goja.IsUndefined(r) {
			return
		}
		out = []byte(r.String())
	})
	if err != nil {
		se := toScriptError(err)
		se.Message = "the result cannot be turned into JSON: " + se.Message
		return nil, se
	}
	if len(out) > s.Cfg.MaxResultBytes {
		return nil, &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "result_size", Message: fmt.Sprintf(
			"the result is %s of JSON and the limit is %s: write large output to a file with write_file and return its link",
			files.FormatBytes(int64(len(out))), files.FormatBytes(int64(s.Cfg.MaxResultBytes)))}
	}
	return out, nil
}

// guardCall runs f, turning a JS exception thrown inside it into an error.
func (s *session) guardCall(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(error); ok {
				err = e
				return
			}
			err = fmt.Errorf("%v", p)
		}
	}()
	f()
	return nil
}

// installProcess gives the script process.env, and, for TypeScript compiled
// to CommonJS, module and exports. require is there to say why it fails.
func (s *session) installProcess() {
	s.lazyGlobal("process", func(process *goja.Object) {
		env := s.vm.NewObject()
		for k, v := range s.env {
			env.Set(k, v)
		}
		process.Set("env", env)
	})
	// Deno.env, for scripts written for Deno (seed 002's runtime): get,
	// has and toObject over the same variables.
	s.lazyGlobal("Deno", func(deno *goja.Object) {
		denoEnv := s.vm.NewObject()
		denoEnv.Set("get", func(key string) goja.Value {
			if v, ok := s.env[key]; ok {
				return s.vm.ToValue(v)
			}
			return goja.Undefined()
		})
		denoEnv.Set("has", func(key string) bool { _, ok := s.env[key]; return ok })
		denoEnv.Set("toObject", func() map[string]any {
			out := make(map[string]any, len(s.env))
			for k, v := range s.env {
				out[k] = v
			}
			return out
		})
		deno.Set("env", denoEnv)
	})
	if s.lang == runtime.TypeScript {
		exports := s.vm.NewObject()
		module := s.vm.NewObject()
		module.Set("exports", exports)
		s.vm.Set("module", module)
		s.vm.Set("exports", exports)
	}
	s.lazyFunc("require", func(call goja.FunctionCall) goja.Value {
		s.throw("Error", "require("+call.Argument(0).String()+"): modules are not available in the sandbox; use the built-in helpers")
		return nil
	})
}
