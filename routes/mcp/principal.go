package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/auth"
)

// PrincipalKey is the TokenInfo.Extra key under which the HTTP door hands
// the MCP door the principal it authenticated (see sdk auth.TokenInfo).
const PrincipalKey = "convfiles.principal"

// withPrincipal is receiving middleware that says who is asking before
// any handler runs: the principal the HTTP door authenticated for the
// request's bearer token, or, on a server that is not hosted (stdio, a
// local HTTP server), the local user. A hosted server's request without
// one gets no principal, and every conversation refuses it.
func (s *Server) withPrincipal(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if p := principalOf(req); p != nil {
			ctx = auth.NewContext(ctx, p)
		} else if !s.cfg.Hosted {
			ctx = auth.NewContext(ctx, auth.Local)
		}
		return next(ctx, method, req)
	}
}

// principalOf is the principal a request's token carries, or nil.
func principalOf(req sdk.Request) *auth.Principal {
	extra := req.GetExtra()
	if extra == nil || extra.TokenInfo == nil {
		return nil
	}
	p, _ := extra.TokenInfo.Extra[PrincipalKey].(*auth.Principal)
	return p
}
