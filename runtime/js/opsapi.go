package js

import (
	"errors"
	"strings"
	"unicode/utf8"

	"convfiles/ops"
	"convfiles/runtime"

	"github.com/dop251/goja"
)

// installFilesAPI binds metaclaw's files.* (seed 004): one helper for
// every operation of the table, files.readText for read_text and
// files.spreadsheet.readRange for spreadsheet_read_range. Files are
// addressed by ID or by name; a folder without an index (convfiles run
// --dir) has no IDs, and there a file's id is its name.
func (s *session) installFilesAPI() {
	s.lazyGlobal("files", func(o *goja.Object) {
		groups := map[string]*goja.Object{"": o}
		for _, op := range ops.All() {
			g, ok := groups[op.Group]
			if !ok {
				g = s.vm.NewObject()
				o.Set(op.Group, g)
				groups[op.Group] = g
			}
			g.Set(op.JS, s.opFunc(op))
		}
		o.Set("download", func(call goja.FunctionCall) goja.Value { return s.filesDownload(s.needSpace("files.download"), call) })
	})
}

// opFunc is the JS helper of one operation. Its positional arguments fill
// the input's fields named in op.Params (a "...options" parameter is an
// object whose keys are merged in); keys are camelCase in JS and
// snake_case in the input. A RegExp argument is passed as its RE2 source
// with its i, m and s flags.
func (s *session) opFunc(op ops.Op) func(goja.FunctionCall) goja.Value {
	usage := runtime.UsageOf(op)
	return func(call goja.FunctionCall) goja.Value {
		sp := s.needSpace(strings.SplitN(usage, "(", 2)[0])
		args := map[string]any{}
		for i, p := range op.Params {
			v := call.Argument(i)
			if goja.IsUndefined(v) || goja.IsNull(v) {
				continue
			}
			if opts, ok := strings.CutPrefix(p, "..."); ok {
				m, isObj := runtime.SnakeKeys(v.Export()).(map[string]any)
				if !isObj {
					s.throw("TypeError", usage+": "+opts+" must be an object")
				}
				for k, x := range m {
					args[k] = x
				}
				continue
			}
			args[p] = s.argValue(usage, runtime.Camel(p), v)
		}
		v, err := s.CallOp(sp, op, args)
		var bad *runtime.BadArgument
		switch {
		case errors.As(err, &bad):
			s.throw("TypeError", usage+": "+bad.Msg)
		case err != nil:
			s.throwFiles(err)
		}
		list, extra, isList := runtime.UnwrapResult(op, v)
		if !isList {
			return s.vm.ToValue(list)
		}
		arr := s.vm.NewArray(list.([]any)...) // a script's own array, which takes properties
		for k, x := range extra {
			arr.Set(k, x)
		}
		return arr
	}
}

// argValue is a positional argument as the input's JSON has it.
func (s *session) argValue(usage, param string, v goja.Value) any {
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "RegExp" {
		return regexpSource(o)
	}
	x := v.Export()
	if str, ok := x.(string); ok && strings.ContainsRune(str, utf8.RuneError) && hasLoneSurrogate(v) {
		s.throw("ValidationError", usage+": "+param+" holds a lone UTF-16 surrogate; text must be valid Unicode")
	}
	return runtime.SnakeKeysUnder(param, x)
}

// regexpSource is a JS RegExp as RE2: its source, with the i, m and s
// flags it has.
func regexpSource(o *goja.Object) string {
	src, flags := o.Get("source").String(), o.Get("flags").String()
	var mods string
	for _, f := range "ims" {
		if strings.ContainsRune(flags, f) {
			mods += string(f)
		}
	}
	if mods != "" {
		src = "(?" + mods + ")" + src
	}
	return src
}
