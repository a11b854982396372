package js

import (
	"github.com/dop251/goja"

	"convfiles/files"
	"convfiles/runtime"
)

// throw raises a JS error of the given name. It panics, which goja turns
// into an exception the script can catch.
func (s *session) throw(name, msg string) {
	panic(s.errorObject(name, msg))
}

// throwFiles raises err, an error from the files package, as a JS error
// named after its kind. Internal causes are logged, not shown.
func (s *session) throwFiles(err error) {
	kind := files.KindOf(err)
	if kind == files.KindInternal {
		s.Cfg.Logger.Error("file operation failed", "err", err)
	}
	o := s.errorObject(runtime.ErrorNames[kind], files.MessageOf(err))
	o.Set("kind", kind.String())
	panic(o)
}

// errorObject makes a JS error named name: a TypeError, RangeError or
// SyntaxError when the name is one, an Error carrying the name otherwise,
// made by the constructor the global holds when the helper throws (read
// then, not before every run: materializing the four constructors was 5
// µs of a hello world). A script that replaced one changes only its own
// errors; one that is no constructor any more gives a TypeError.
func (s *session) errorObject(name, msg string) *goja.Object {
	ctorName := "Error"
	switch name {
	case "TypeError", "RangeError", "SyntaxError":
		ctorName = name
	}
	var obj *goja.Object
	ctor := s.vm.GlobalObject().Get(ctorName)
	if _, ok := goja.AssertConstructor(ctor); ok {
		obj, _ = s.vm.New(ctor, s.vm.ToValue(msg))
	}
	if obj == nil {
		obj = s.vm.NewTypeError(msg)
	}
	obj.Set("name", name)
	return obj
}
