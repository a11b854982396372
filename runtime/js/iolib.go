package js

import (
	"fmt"
	"strings"

	"convfiles/runtime"

	"github.com/dop251/goja"
)

// installIO binds toolscript's sandboxed io library (seed 001) — io.open,
// io.lines, io.type, io.list and os.remove — and code-mcp's file.save
// (seed 000), all on the run's Space and its byte budget. A run without
// files has none of these globals, as the seeds specify.
func (s *session) installIO() {
	if s.Files == nil {
		return
	}
	s.lazyGlobal("io", func(o *goja.Object) {
		o.Set("open", s.ioOpen)
		o.Set("lines", s.ioLines)
		o.Set("type", s.ioType)
		o.Set("list", s.ioList)
	})
	s.lazyGlobal("os", func(o *goja.Object) { o.Set("remove", s.osRemove) })
	s.lazyGlobal("file", func(o *goja.Object) { o.Set("save", s.fileSave) })
}

// handleRef carries a handle on its JS object under the run's symbol.
type handleRef struct{ h *runtime.Handle }

func (s *session) ioOpen(call goja.FunctionCall) goja.Value {
	const usage = "io.open(name, mode)"
	sp := s.needSpace("io.open")
	name := s.stringArg(call, 0, usage, "name")
	mode := "r"
	if m := call.Argument(1); !goja.IsUndefined(m) && !goja.IsNull(m) {
		mode = s.stringArg(call, 1, usage, "mode")
	}
	binary := strings.HasSuffix(mode, "b")
	base := strings.TrimSuffix(mode, "b")
	if base != "r" && base != "w" && base != "a" || len(mode) > 2 {
		s.throw("ValidationError", usage+": mode "+fmt.Sprintf("%q", mode)+" is not one of r, w, a, rb, wb, ab")
	}
	if s.Open >= runtime.MaxOpenFiles {
		s.throw("LimitError", fmt.Sprintf("%s: at most %d files may be open at once; close some first", usage, runtime.MaxOpenFiles))
	}
	h, err := s.OpenHandle(sp, name, base, binary)
	if err != nil {
		s.throwFiles(err)
	}
	s.Track(h)
	return s.handleObject(h)
}

// ioLines is io.lines(name): an iterator over the lines of a file, which
// it closes at the end.
func (s *session) ioLines(call goja.FunctionCall) goja.Value {
	name := s.stringArg(call, 0, "io.lines(name)", "name")
	hv := s.ioOpen(goja.FunctionCall{Arguments: []goja.Value{s.vm.ToValue(name), s.vm.ToValue("r")}})
	h := s.handleOf(hv)
	return s.lineIterator(h, true)
}

// ioType is io.type(x): "file", "closed file", or null for anything else.
func (s *session) ioType(call goja.FunctionCall) goja.Value {
	h := s.handleOf(call.Argument(0))
	switch {
	case h == nil:
		return goja.Null()
	case h.Closed:
		return s.vm.ToValue("closed file")
	}
	return s.vm.ToValue("file")
}

// ioList is io.list(path?): the names in a folder, without recursion.
func (s *session) ioList(call goja.FunctionCall) goja.Value {
	sp := s.needSpace("io.list")
	dir := ""
	if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
		dir = s.stringArg(call, 0, "io.list(path)", "path")
	}
	entries, err := sp.ReadDir(s.Ctx, dir)
	if err != nil {
		s.throwFiles(err)
	}
	names := make([]any, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	return s.vm.NewArray(names...)
}

// osRemove is os.remove(name): deletes a file, never a folder.
func (s *session) osRemove(call goja.FunctionCall) goja.Value {
	return s.deleteFile(goja.FunctionCall{This: call.This, Arguments: []goja.Value{s.vm.ToValue(s.stringArg(call, 0, "os.remove(name)", "name"))}})
}

// fileSave is file.save(name, content) → the file's absolute path (seed 000).
func (s *session) fileSave(call goja.FunctionCall) goja.Value {
	info := s.save(call, "file.save", "file.save(name, content)")
	return s.vm.ToValue(s.Files.HostPath(info.Name))
}
