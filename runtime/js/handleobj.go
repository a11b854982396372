package js

import (
	"strconv"

	"convfiles/runtime"

	"github.com/dop251/goja"
)

// handleObject is the JS side of an io handle: read, write, lines, seek,
// flush and close, with Lua's meanings (seed 001).
func (s *session) handleObject(h *runtime.Handle) *goja.Object {
	o := s.vm.NewObject()
	o.Set("name", h.Name)
	o.DefineDataPropertySymbol(s.handleKey, s.vm.ToValue(handleRef{h}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	live := func(method string) {
		if h.Closed {
			s.throw("Error", "file:"+method+": attempt to use a closed file ("+h.Name+")")
		}
	}
	o.Set("read", func(call goja.FunctionCall) goja.Value {
		live("read")
		if !h.Reading() {
			s.throw("Error", "file:read: "+h.Name+" was opened for writing")
		}
		return s.read(h, call.Argument(0))
	})
	o.Set("write", func(call goja.FunctionCall) goja.Value {
		live("write")
		if h.Reading() {
			s.throw("Error", "file:write: "+h.Name+" was opened for reading")
		}
		if h.Failed != nil {
			s.throw("Error", "file:write: an earlier write to "+h.Name+" failed, so this file will not be saved: "+h.Failed.Error())
		}
		for _, a := range call.Arguments {
			if _, err := h.Writer.Write(s.writeArg(a)); err != nil {
				h.Failed = err
				s.throwFiles(err)
			}
		}
		return o
	})
	o.Set("lines", func(goja.FunctionCall) goja.Value {
		live("lines")
		if !h.Reading() {
			s.throw("Error", "file:lines: "+h.Name+" was opened for writing")
		}
		return s.lineIterator(h, false)
	})
	o.Set("seek", func(call goja.FunctionCall) goja.Value {
		live("seek")
		whence := "cur"
		if w := call.Argument(0); !goja.IsUndefined(w) {
			whence = w.String()
		}
		if whence != "set" && whence != "cur" && whence != "end" {
			s.throw("ValidationError", "file:seek: whence must be \"set\", \"cur\" or \"end\"")
		}
		pos, err := h.Seek(whence, call.Argument(1).ToInteger())
		if err != nil {
			s.throw("Error", "file:seek: "+err.Error())
		}
		return s.vm.ToValue(pos)
	})
	o.Set("flush", func(goja.FunctionCall) goja.Value {
		live("flush")
		if err := h.Flush(); err != nil {
			s.throwFiles(err)
		}
		return o
	})
	o.Set("close", func(goja.FunctionCall) goja.Value {
		live("close")
		committed, err := h.Close(false)
		s.Open--
		if err != nil {
			s.throwFiles(err)
		}
		return s.vm.ToValue(committed || h.Reading())
	})
	return o
}

// handleOf returns the handle behind a JS value, or nil.
func (s *session) handleOf(v goja.Value) *runtime.Handle {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil
	}
	tag := o.GetSymbol(s.handleKey)
	if tag == nil {
		return nil
	}
	ref, ok := tag.Export().(handleRef)
	if !ok {
		return nil
	}
	return ref.h
}

// read implements file:read(format): "a" (the rest), "l" (a line, the
// default), "L" (a line with its end), "n" (a number), or a byte count. The
// leading "*" of Lua 5.1 is accepted. Text handles give strings, binary
// handles Uint8Arrays; the end of the file gives null.
func (s *session) read(h *runtime.Handle, format goja.Value) goja.Value {
	var (
		b   []byte
		ok  = true
		err error
	)
	if goja.IsUndefined(format) || goja.IsNull(format) {
		format = s.vm.ToValue("l")
	}
	if n, isNum := format.Export().(int64); isNum {
		b, ok, err = h.ReadCount(n)
	} else {
		switch f := format.String(); f {
		case "*a", "a":
			b, err = h.ReadAll()
		case "*l", "l":
			b, ok, err = h.ReadLine(false)
		case "*L", "L":
			b, ok, err = h.ReadLine(true)
		case "*n", "n":
			v, found := h.ReadNumber()
			if !found {
				return goja.Null()
			}
			return s.vm.ToValue(v)
		default:
			s.throw("ValidationError", "file:read: format "+strconv.Quote(f)+" is not one of \"a\", \"l\", \"L\", \"n\" or a byte count")
		}
	}
	if err != nil {
		s.throw("Error", "file:read: "+err.Error())
	}
	if !ok {
		return goja.Null()
	}
	return s.bytesValue(h.Binary, b)
}

// bytesValue gives bytes to the script: a string in text mode, a Uint8Array
// in binary mode.
func (s *session) bytesValue(binary bool, b []byte) goja.Value {
	if !binary {
		return s.vm.ToValue(string(b))
	}
	arr, err := s.vm.New(s.vm.Get("Uint8Array"), s.vm.ToValue(s.vm.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return arr
}

// writeArg converts one argument of file:write to bytes: strings as UTF-8,
// numbers as text, ArrayBuffers and typed arrays as their bytes.
func (s *session) writeArg(v goja.Value) []byte {
	if o, ok := v.(*goja.Object); ok {
		if b, ok := s.bufferBytes(o); ok {
			return b
		}
		s.throw("TypeError", "file:write: pass strings, numbers or bytes, not "+o.ClassName())
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		s.throw("TypeError", "file:write: pass strings, numbers or bytes, not "+typeName(v))
	}
	return runtime.StringBytes(v.String())
}

// lineIterator returns a JS iterator over h's lines, for for…of. With
// closeAtEnd (io.lines) the file is closed after its last line.
func (s *session) lineIterator(h *runtime.Handle, closeAtEnd bool) goja.Value {
	it := s.vm.NewObject()
	it.Set("next", func(goja.FunctionCall) goja.Value {
		res := s.vm.NewObject()
		if h.Closed {
			res.Set("done", true)
			return res
		}
		line, ok, err := h.ReadLine(false)
		if err != nil {
			s.throw("Error", "lines: "+err.Error())
		}
		if !ok {
			if closeAtEnd {
				h.Close(false)
				s.Open--
			}
			res.Set("done", true)
			return res
		}
		res.Set("value", s.bytesValue(h.Binary, line))
		res.Set("done", false)
		return res
	})
	it.SetSymbol(goja.SymIterator, func(call goja.FunctionCall) goja.Value { return call.This })
	return it
}
