package runtime

import (
	"encoding/json"
	"fmt"
	"strings"

	"convfiles/files"
	"convfiles/ops"
)

// BadArgument is an argument a script passed that the operation's input
// cannot take; its message says which and why.
type BadArgument struct{ Msg string }

func (b *BadArgument) Error() string { return b.Msg }

// CallOp runs op on sp for a script, JS or Lua alike: args are the
// input's fields (snake_case keys, as decoded from the script's values).
// The result comes back as JSON values with camelCase keys, unless the
// op keeps seed 004's snake_case. A bad argument is a *badArgument; any
// other error is the operation's.
func (s *Run) CallOp(sp files.Ops, op ops.Op, args map[string]any) (any, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, &BadArgument{err.Error()}
	}
	in, err := op.DecodeArgs(raw, Camel)
	if err != nil {
		return nil, &BadArgument{err.Error()}
	}
	out, err := op.Run(s.Ctx, s.OpsEnv(sp), in)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op.Name, err)
	}
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", op.Name, err)
	}
	if !op.SnakeJS {
		v = camelKeys(v)
	}
	return v, nil
}

// UnwrapResult is what a script gets back from op: the whole result, or
// only its Unwrap field. An unwrapped list (isList) carries the result's
// other fields (total, nextOffset) in extra, which a binding sets on the
// list it makes.
func UnwrapResult(op ops.Op, v any) (main any, extra map[string]any, isList bool) {
	m, isObj := v.(map[string]any)
	if op.Unwrap == "" || !isObj {
		return v, nil, false
	}
	list, isList := m[op.Unwrap].([]any)
	if !isList {
		return m[op.Unwrap], nil, false
	}
	extra = map[string]any{}
	for k, x := range m {
		if k != op.Unwrap && x != nil {
			extra[k] = x
		}
	}
	return list, extra, true
}

// OpsEnv is what an operation called from a script works with: its byte
// budget and session, and its record of the files it touched.
func (s *Run) OpsEnv(sp files.Ops) ops.Env {
	return ops.Env{Space: sp, Write: s.WriteOpts(), Link: s.link, Touched: s.Touches.Touch}
}

// UsageOf is how a helper is called, for error messages:
// files.copy(id, newName, options).
func UsageOf(op ops.Op) string {
	qualified := "files."
	if op.Group != "" {
		qualified += op.Group + "."
	}
	params := make([]string, len(op.Params))
	for i, p := range op.Params {
		params[i] = Camel(strings.TrimPrefix(p, "..."))
	}
	return qualified + op.JS + "(" + strings.Join(params, ", ") + ")"
}
