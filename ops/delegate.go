package ops

import (
	"context"
	"encoding/json"
	"reflect"

	"convfiles/files"
)

// Delegate is a Space that runs bulk reads (Op.Bulk) whole, where the
// files are. A script's worker has one: it sends a content search to the
// server, which reads the conversation's folders directly, where the
// worker would be sent every file over its socket. The input and the
// result cross as the JSON the doors answer in.
type Delegate interface {
	RunBulk(ctx context.Context, op string, in json.RawMessage, b Bounds) (json.RawMessage, error)
}

// Bounds are the bounds of an Env's answers, which go with an operation
// run elsewhere.
type Bounds struct {
	MaxText   int64
	MaxAnswer int
}

// dispatch runs op on in (a pointer from NewIn): handed whole to a Space
// that is a Delegate when op is a bulk read, here otherwise.
func (op Op) dispatch(ctx context.Context, env Env, in any) (any, error) {
	d, ok := env.Space.(Delegate)
	if !ok || !op.Bulk {
		return op.run(ctx, env, in)
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, files.E(op.Name, files.KindInvalid, "", err.Error(), nil)
	}
	answer, err := d.RunBulk(ctx, op.Name, raw, Bounds{MaxText: env.MaxText, MaxAnswer: env.MaxAnswer})
	if err != nil {
		return nil, err
	}
	out := reflect.New(op.Out)
	if err := json.Unmarshal(answer, out.Interface()); err != nil {
		return nil, files.E(op.Name, files.KindInternal, "", "the server's answer could not be read", err)
	}
	return out.Elem().Interface(), nil
}

// RunDelegated runs, for a script's worker, the bulk read a Delegate
// handed on: in env (the worker's conversation, whose run its door
// authorized), with the bounds the worker's Env had. Nothing but a bulk
// read is run: a worker cannot have the server do anything else on its
// behalf this way.
func RunDelegated(ctx context.Context, name string, env Env, in json.RawMessage, b Bounds) (json.RawMessage, error) {
	op, ok := table[name]
	if !ok || !op.Bulk || op.Effect != Reads {
		return nil, files.E(name, files.KindInvalid, "", "only a bulk read is run for a worker", nil)
	}
	args := op.newIn()
	if err := Decode(in, args); err != nil {
		return nil, files.E(name, files.KindInvalid, "", err.Error(), nil)
	}
	env.MaxText, env.MaxAnswer = b.MaxText, b.MaxAnswer
	out, err := op.run(ctx, env, args)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}
