package js

import "github.com/dop251/goja"

func (s *session) installConsole() {
	logf := func(prefix string) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			s.Logs.Add(prefix, len(call.Arguments), func(i int) string { return inspect(call.Arguments[i]) })
			return goja.Undefined()
		}
	}
	s.lazyGlobal("console", func(console *goja.Object) {
		console.Set("log", logf(""))
		console.Set("info", logf(""))
		console.Set("debug", logf(""))
		console.Set("warn", logf("warn: "))
		console.Set("error", logf("error: "))
	})
	s.lazyFunc("print", logf(""))
}
