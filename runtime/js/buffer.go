package js

import (
	"strconv"

	"github.com/dop251/goja"
)

// guardBuffer completes goja_nodejs's Buffer with the statics scripts
// use that it lacks (isBuffer, byteLength, allocUnsafe, allocUnsafeSlow:
// zeroed, like alloc), and caps what its Go code allocates in one call,
// as the typed-array guards do (a contained worker leaves that to the
// kernel): alloc and the like by their size, from by an array-like's
// length, concat by the lengths it would join.
func (s *session) guardBuffer(b *goja.Object) goja.Value {
	alloc := b.Get("alloc")
	b.Set("allocUnsafe", alloc)
	b.Set("allocUnsafeSlow", alloc)
	b.Set("isBuffer", func(v goja.Value) bool { return s.vm.InstanceOf(v, b) })
	b.Set("byteLength", func(call goja.FunctionCall) goja.Value {
		if o, ok := call.Argument(0).(*goja.Object); ok {
			if data, ok := s.bufferBytes(o); ok {
				return s.vm.ToValue(len(data))
			}
		}
		from, _ := goja.AssertFunction(b.Get("from"))
		v, err := from(b, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v.ToObject(s.vm).Get("length")
	})
	if s.Cfg.Contained {
		return b
	}
	check := func(what string, n int64) {
		if n > MaxBufferBytes {
			s.throw("RangeError", what+" of "+formatInt(n)+" bytes is over the sandbox limit of "+formatInt(MaxBufferBytes)+" bytes")
		}
	}
	guard := func(name string, size func(call goja.FunctionCall) int64) {
		orig, ok := goja.AssertFunction(b.Get(name))
		if !ok {
			return
		}
		b.Set(name, func(call goja.FunctionCall) goja.Value {
			check("Buffer."+name, size(call))
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
	first := func(call goja.FunctionCall) int64 { return call.Argument(0).ToInteger() }
	for _, name := range []string{"alloc", "allocUnsafe", "allocUnsafeSlow"} {
		guard(name, first)
	}
	guard("from", func(call goja.FunctionCall) int64 {
		if o, ok := call.Argument(0).(*goja.Object); ok {
			if l := o.Get("length"); l != nil {
				return l.ToInteger()
			}
		}
		return 0
	})
	guard("concat", func(call goja.FunctionCall) int64 {
		if len(call.Arguments) > 1 {
			return call.Argument(1).ToInteger()
		}
		var total int64
		if list, ok := call.Argument(0).(*goja.Object); ok {
			s.vm.ForOf(list, func(v goja.Value) bool {
				if o, ok := v.(*goja.Object); ok {
					if l := o.Get("length"); l != nil {
						total += l.ToInteger()
					}
				}
				return total <= MaxBufferBytes
			})
		}
		return total
	})
	return b
}

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
