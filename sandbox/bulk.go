package sandbox

import (
	"context"
	"encoding/gob"
	"encoding/json"

	"convfiles/ops"
)

// A bulk read (ops.Op.Bulk: a content search) crosses the socket whole:
// the worker's Space is an ops.Delegate, and the server runs the
// operation on the conversation's Space, where the folders are read
// directly, instead of passing the worker a descriptor for every file.
// Its input and result cross as JSON text.

var _ ops.Delegate = (*client)(nil)

func init() { gob.Register(ops.Bounds{}) }

// RunBulk has the server run the bulk read op on in.
func (cl *client) RunBulk(ctx context.Context, op string, in json.RawMessage, b ops.Bounds) (json.RawMessage, error) {
	out, err := one[string](cl, ctx, opRunBulk, op, string(in), b)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

// runBulk answers RunBulk: the operation, run on the job's Space with the
// worker's bounds; ops.RunDelegated refuses anything but a bulk read.
func (o *opServer) runBulk(ctx context.Context, m *message, r *message) error {
	name, _ := arg[string](m, 0)
	in, _ := arg[string](m, 1)
	b, _ := arg[ops.Bounds](m, 2)
	out, err := ops.RunDelegated(ctx, name, ops.Env{Space: o.sp}, json.RawMessage(in), b)
	if err != nil {
		return err
	}
	r.Results = []any{string(out)}
	return nil
}
