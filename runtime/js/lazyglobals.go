package js

import "github.com/dop251/goja"

// lazyGlobals makes the helpers a script finds as globals on its first
// use of each. It is the global object's prototype: a name the global
// does not hold is looked up here, made, and defined on the global
// itself, where every later use finds it, as if it had always been there
// ("name" in globalThis and typeof name say so from the start; only
// delete of one never used does nothing, as it is not the global's own
// yet). Most
// scripts use a few of the fifty-odd helpers, and making every one for
// every run cost a hello world a quarter of its time.
type lazyGlobals struct {
	s     *session
	makes map[string]func() goja.Value
}

func (s *session) installLazyGlobals() {
	s.lazy = &lazyGlobals{s: s, makes: make(map[string]func() goja.Value, 48)}
	s.vm.GlobalObject().SetPrototype(s.vm.NewDynamicObject(s.lazy))
}

// lazyValue makes the global name what make returns, on first use.
func (s *session) lazyValue(name string, make func() goja.Value) {
	s.lazy.makes[name] = make
}

// lazyGlobal makes the global name an object that fill fills, on first
// use.
func (s *session) lazyGlobal(name string, fill func(o *goja.Object)) {
	s.lazyValue(name, func() goja.Value {
		o := s.vm.NewObject()
		fill(o)
		return o
	})
}

// lazyFunc makes the global name the Go function fn, on first use.
func (s *session) lazyFunc(name string, fn func(goja.FunctionCall) goja.Value) {
	s.lazyValue(name, func() goja.Value { return s.vm.ToValue(fn) })
}

// Get makes key's global, defines it on the global object and returns
// it; nil for a name that is not a helper (the lookup goes on to
// Object.prototype).
func (l *lazyGlobals) Get(key string) goja.Value {
	make, ok := l.makes[key]
	if !ok {
		return nil
	}
	delete(l.makes, key)
	v := make()
	l.s.vm.GlobalObject().DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return v
}

// Has reports whether key is a helper not made yet.
func (l *lazyGlobals) Has(key string) bool {
	_, ok := l.makes[key]
	return ok
}

// Set refuses: an assignment to a helper's name defines it on the global
// object, as for any name the prototype holds as data.
func (l *lazyGlobals) Set(string, goja.Value) bool { return false }

// Delete forgets a helper not made yet (delete globalThis.write_file).
func (l *lazyGlobals) Delete(key string) bool {
	delete(l.makes, key)
	return true
}

// Keys lists none: the helpers are not enumerated before their first use.
func (l *lazyGlobals) Keys() []string { return nil }

// names are the helpers not made yet.
func (l *lazyGlobals) names() []string {
	out := make([]string, 0, len(l.makes))
	for k := range l.makes {
		out = append(out, k)
	}
	return out
}
