package ops

import (
	"context"

	"convfiles/auth"
)

// Authorize is the one check of who may do what, for every door: the
// principal ctx carries (auth.NewContext) must reach conv and hold need.
// A context without a principal is refused, so a door that forgets to say
// who is asking fails closed; the local doors (the CLI, stdio MCP, a
// local server) say auth.Local. Every operation of the table runs it
// first (Op.Call, Op.Run); the doors' own routes (links, uploads, event
// streams, runs) call it before they open a conversation.
func Authorize(ctx context.Context, conv string, need auth.Scope) error {
	p := auth.FromContext(ctx)
	if p == nil {
		return auth.ErrNoCredential
	}
	return p.Allow(conv, need)
}

// Scope is the scope an operation of this effect needs: read for reads,
// write for the rest.
func (e Effect) Scope() auth.Scope {
	if e == Reads {
		return auth.Read
	}
	return auth.Write
}

// authorize checks that ctx's principal may run op in env's conversation.
func (op Op) authorize(ctx context.Context, env Env) error {
	conv := ""
	if env.Space != nil {
		conv = env.Space.ID()
	}
	return Authorize(ctx, conv, op.Effect.Scope())
}

// AuthorizeScope checks the scope alone, for what belongs to no one
// conversation: a run without one, saved code, the list of conversations.
func AuthorizeScope(ctx context.Context, need auth.Scope) error {
	p := auth.FromContext(ctx)
	if p == nil {
		return auth.ErrNoCredential
	}
	return p.Require(need)
}
