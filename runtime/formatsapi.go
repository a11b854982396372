package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"convfiles/files"
	"convfiles/formats"
)

// formatOp binds one files.spreadsheet/pdf/image method. Its positional
// arguments fill the JSON fields named in params; a param "...name" is an
// options object whose keys are merged in. Keys are written in camelCase
// in JS (maxWidth) and snake_case in the JSON fields (max_width); the
// result comes back in camelCase.
type formatOp struct {
	name   string   // e.g. "readRange"
	params []string // e.g. {"file", "sheet", "range"}
	call   func(ctx context.Context, e formats.Env, args []byte) (any, error)
}

// op makes a formatOp over a formats function.
func op[A, R any](name string, params []string, f func(context.Context, formats.Env, A) (R, error)) formatOp {
	return formatOp{name: name, params: params, call: func(ctx context.Context, e formats.Env, raw []byte) (any, error) {
		var a A
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return nil, argError(err)
		}
		return f(ctx, e, a)
	}}
}

// argError rewrites a JSON decoding error in the script's terms.
func argError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		field := strings.Trim(msg[i+len("unknown field "):], `"`)
		return fmt.Errorf("unknown option %q", camel(field))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s must be %s, not %s", camel(te.Field), jsType(te.Type.Kind().String()), te.Value)
	}
	return err
}

// filesError reports whether err is a files.Error, which throwFiles turns
// into a script error of its kind.
func filesError(err error) (*files.Error, bool) {
	var fe *files.Error
	ok := errors.As(err, &fe)
	return fe, ok
}

// installFormatAPIs puts files.spreadsheet, files.pdf and files.image on
// the files object.
func (s *session) installFormatAPIs(files *goja.Object) {
	for ns, ops := range map[string][]formatOp{"spreadsheet": spreadsheetOps, "pdf": pdfOps, "image": imageOps} {
		o := s.vm.NewObject()
		for _, f := range ops {
			o.Set(f.name, s.formatFunc("files."+ns+"."+f.name, f))
		}
		files.Set(ns, o)
	}
}

func (s *session) formatFunc(qualified string, f formatOp) func(goja.FunctionCall) goja.Value {
	usage := qualified + "(" + strings.Join(f.params, ", ") + ")"
	usage = strings.ReplaceAll(usage, "...", "")
	return func(call goja.FunctionCall) goja.Value {
		sp := s.needSpace(qualified)
		args := map[string]any{}
		for i, p := range f.params {
			v := call.Argument(i)
			if goja.IsUndefined(v) || goja.IsNull(v) {
				continue
			}
			if opts, ok := strings.CutPrefix(p, "..."); ok {
				m, isObj := snakeKeys(v.Export()).(map[string]any)
				if !isObj {
					s.throw("TypeError", usage+": "+opts+" must be an object")
				}
				for k, x := range m {
					args[k] = x
				}
				continue
			}
			args[snake(p)] = snakeKeysUnder(p, v.Export())
		}
		raw, err := json.Marshal(args)
		if err != nil {
			s.throw("TypeError", usage+": "+err.Error())
		}
		env := formats.Env{Space: sp, Write: s.writeOpts(), Wrote: func(name string) { s.touched.Touch(name, OpWrite) }}
		out, err := f.call(s.ctx, env, raw)
		if err != nil {
			if _, isFiles := filesError(err); isFiles {
				s.throwFiles(err)
			}
			s.throw("TypeError", usage+": "+err.Error())
		}
		js, err := json.Marshal(out)
		if err != nil {
			s.throw("Error", usage+": "+err.Error())
		}
		var v any
		if err := json.Unmarshal(js, &v); err != nil {
			s.throw("Error", usage+": "+err.Error())
		}
		return s.vm.ToValue(camelKeys(v))
	}
}
