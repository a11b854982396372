package runtime

import (
	"github.com/dop251/goja"

	"convfiles/files"
)

// errorNames maps each files.Kind to the JS error name a script sees, so a
// script can tell a bad name from a missing file from a full quota:
//
//	try { read_file("x") } catch (e) { if (e.name === "FileNotFoundError") … }
var errorNames = map[files.Kind]string{
	files.KindInvalid:         "ValidationError",
	files.KindNotFound:        "FileNotFoundError",
	files.KindTooLarge:        "LimitError",
	files.KindForbidden:       "PermissionError",
	files.KindConflict:        "ConflictError",
	files.KindInternal:        "InternalError",
	files.KindCancelled:       "CancelledError",
	files.KindNoSpace:         "StorageFullError",
	files.KindUnauthenticated: "AuthenticationError",
}

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
		s.cfg.Logger.Error("file operation failed", "err", err)
	}
	o := s.errorObject(errorNames[kind], files.MessageOf(err))
	o.Set("kind", kind.String())
	panic(o)
}

// errorObject makes a JS error named name: a TypeError or RangeError when
// the name is one, an Error carrying the name otherwise.
func (s *session) errorObject(name, msg string) *goja.Object {
	ctor, ok := s.ctors[name]
	if !ok {
		ctor = s.ctors["Error"]
	}
	obj, err := s.vm.New(ctor, s.vm.ToValue(msg))
	if err != nil {
		panic(s.vm.NewGoError(err))
	}
	obj.Set("name", name)
	return obj
}
