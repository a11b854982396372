package routes

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/links"
	"convfiles/ops"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// openPaths are answered without a credential: they reveal nothing of any
// conversation.
var openPaths = map[string]bool{"/healthz": true, "/health": true, "/openapi.json": true, resourceMetadataPath: true}

// resourceMetadataPath is where an MCP client finds how to authenticate
// (RFC 9728 protected-resource metadata).
const resourceMetadataPath = "/.well-known/oauth-protected-resource"

// authenticate says who is asking: the local user when the server has no
// Authenticator, else the principal of the request's bearer credential.
// A request without a valid one is answered 401 with a WWW-Authenticate
// header that points MCP clients at the resource metadata.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	if s.auth == nil {
		return r.WithContext(auth.NewContext(r.Context(), auth.Local)), true
	}
	if openPaths[r.URL.Path] || isPageAsset(r.URL.Path) || r.URL.Path == sessionPath && r.Method == http.MethodPost {
		return r, true
	}
	cred, fromCookie := sessionCredential(r)
	p, err := s.auth.Authenticate(r.Context(), cred)
	if err == nil && fromCookie {
		err = s.checkCSRF(r, cred)
	}
	if err != nil {
		if files.KindOf(err) == files.KindUnauthenticated {
			challenge := `Bearer realm="convfiles", resource_metadata="` + apiURL(s.links, resourceMetadataPath) + `"`
			if cred != "" {
				challenge += `, error="invalid_token"`
			}
			w.Header().Set("WWW-Authenticate", challenge)
		}
		writeError(w, r, s.log, err)
		return r, false
	}
	infoOf(w).credential = p.ID
	if ok, wait := s.limits.credential.allow(p.ID); !ok {
		s.metrics.LimitHit("credential")
		tooMany(w, "this credential", s.rates.PerCredential, wait)
		return r, false
	}
	return r.WithContext(auth.NewContext(r.Context(), p)), true
}

// open opens conv's files for a request that needs the given scope: the
// one way this door reaches a conversation, so that ops.Authorize sees
// every access.
func (s *Server) open(ctx context.Context, conv string, need auth.Scope) (*engine.Space, error) {
	if err := files.ValidateConversationID(conv); err != nil {
		return nil, err
	}
	if err := ops.Authorize(ctx, conv, need); err != nil {
		return nil, err
	}
	sp, err := s.store.Space(conv)
	if err != nil {
		return nil, err
	}
	return sp, nil
}

// reaches reports whether the request's principal reaches conv, for the
// routes that list or stream several conversations.
func reaches(ctx context.Context, conv string) bool {
	p := auth.FromContext(ctx)
	return p != nil && p.Reaches(conv)
}

// removeConversation removes conv and every file in it, for a principal
// that may write there.
func (s *Server) removeConversation(ctx context.Context, conv string) error {
	if err := files.ValidateConversationID(conv); err != nil {
		return err
	}
	if err := ops.Authorize(ctx, conv, auth.Write); err != nil {
		return err
	}
	return s.store.RemoveConversation(ctx, conv)
}

// linkCredential is what lets a request read a file link: its signature
// when links are signed (a link is a credential for one file until it
// expires), else a bearer credential, else, on a local server, the local
// user. A link that is unsigned, altered or expired is refused with 403.
// When ok is false the request has been answered.
func (s *Server) linkCredential(w http.ResponseWriter, r *http.Request, conv, name string) (ctx context.Context, ok bool) {
	signer := s.links.Sign
	if signer == nil {
		if s.auth == nil {
			return auth.NewContext(r.Context(), auth.Local), true
		}
		// Hosted mode signs its links (cmd refuses to start otherwise);
		// without a signer, a bearer credential is the only way in.
		r, ok = s.authenticate(w, r)
		return r.Context(), ok
	}
	err := signer.VerifyQuery(conv, name, r.URL.RawQuery)
	if cred, _ := sessionCredential(r); errors.Is(err, links.ErrUnsigned) && s.auth != nil && cred != "" {
		r, ok = s.authenticate(w, r)
		return r.Context(), ok
	}
	if err != nil {
		writeError(w, r, s.log, files.E("link", files.KindForbidden, "", err.Error(), nil))
		return nil, false
	}
	infoOf(w).credential = "link"
	return auth.NewContext(r.Context(), &auth.Principal{ID: "link", Scopes: auth.Read, Conversations: []string{conv}}), true
}

// needs wraps a handler of a route that belongs to no one conversation
// with the check of the scope it needs.
func (s *Server) needs(need auth.Scope, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := ops.AuthorizeScope(r.Context(), need); err != nil {
			writeError(w, r, s.log, err)
			return
		}
		h(w, r)
	}
}

// principalKey is the TokenInfo.Extra key of the principal (the MCP
// door's PrincipalKey; routes does not import routes/mcp).
const principalKey = "convfiles.principal"

// protectMCP puts the MCP handler behind the MCP SDK's bearer-token
// middleware, as the MCP authorization specification describes: the
// request was authenticated already (authenticate), and the SDK gets its
// TokenInfo, whose UserID binds each MCP session to the credential that
// opened it and whose Extra carries the principal to the tools.
func (s *Server) protectMCP(h http.Handler) http.Handler {
	if s.auth == nil {
		return h
	}
	verify := func(_ context.Context, _ string, r *http.Request) (*sdkauth.TokenInfo, error) {
		p := auth.FromContext(r.Context())
		if p == nil {
			return nil, sdkauth.ErrInvalidToken
		}
		return &sdkauth.TokenInfo{Scopes: strings.Fields(p.Scopes.String()), Expiration: p.Expires, UserID: p.ID,
			Extra: map[string]any{principalKey: p}}, nil
	}
	// Every request's work, the session's GET stream of server messages
	// included, ends with the credential that sent it.
	watched := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		watch, stop := s.watchCredential(r)
		defer stop()
		h.ServeHTTP(w, r.WithContext(watch.ctx))
	})
	return sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{
		ResourceMetadataURL:    apiURL(s.links, resourceMetadataPath),
		AllowMissingExpiration: true, // API keys live until revoked
	})(watched)
}

// resourceMetadata serves RFC 9728 protected-resource metadata, where MCP
// clients learn that /mcp takes bearer tokens and who issues them.
func (s *Server) resourceMetadata(issuers []string) http.Handler {
	return sdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               apiURL(s.links, "/mcp"),
		AuthorizationServers:   issuers,
		BearerMethodsSupported: []string{"header"},
		ScopesSupported:        []string{"read", "write", "execute", "admin"},
		ResourceName:           "convfiles",
	})
}
