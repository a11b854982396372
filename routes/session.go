package routes

import (
	"crypto/hmac"
	"encoding/base64"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"convfiles/auth"
	"convfiles/files"
)

// The web page's session: it signs in with a token (minted by POST
// /api/tokens, or an identity provider's), which the server keeps in an
// HttpOnly, SameSite=Strict cookie that the page's script cannot read.
// Requests that change something and ride on the cookie must also carry
// the session's CSRF token in X-CSRF-Token, which GET /api/session gives
// the page alone (a cross-site page cannot read the answer).
const (
	sessionCookie = "convfiles_session"
	csrfHeader    = "X-CSRF-Token"
	sessionPath   = "/api/session"
)

func (s *Server) registerSession(r *mux.Router) {
	r.HandleFunc(sessionPath, s.handleSignIn).Methods(http.MethodPost)
	r.HandleFunc(sessionPath, s.handleSession).Methods(http.MethodGet)
	r.HandleFunc(sessionPath, s.handleSignOut).Methods(http.MethodDelete)
}

// sessionCredential is the credential a request carries: its bearer
// token, else its session cookie (fromCookie).
func sessionCredential(r *http.Request) (cred string, fromCookie bool) {
	if cred = auth.BearerToken(r.Header.Get("Authorization")); cred != "" {
		return cred, false
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		return c.Value, true
	}
	return "", false
}

// csrfToken is the CSRF token of a session: a MAC of its credential
// under the server's CSRF subkey, so it needs no storage.
func (s *Server) csrfToken(cred string) string {
	k, ok := s.auth.Ring.Derive("csrf").Signer()
	if !ok {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(k.MAC(cred)[:18])
}

// checkCSRF refuses a request that changes something on the strength of
// the session cookie alone.
func (s *Server) checkCSRF(r *http.Request, cred string) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	want := s.csrfToken(cred)
	if got := r.Header.Get(csrfHeader); want == "" || !hmac.Equal([]byte(got), []byte(want)) {
		return files.E("session", files.KindForbidden, "", "a request signed in by the session cookie must carry its "+csrfHeader+" header (GET "+sessionPath+" gives it)", nil)
	}
	return nil
}

// sessionJSON describes who the session is.
func (s *Server) sessionJSON(p *auth.Principal, cred string) map[string]any {
	out := map[string]any{"credential": p.ID, "scopes": p.Scopes.String(), "hosted": s.auth != nil}
	if p.Tenant != "" {
		out["tenant"] = p.Tenant
	}
	if len(p.Conversations) > 0 {
		out["conversations"] = p.Conversations
	}
	if !p.Expires.IsZero() {
		out["expires_at"] = p.Expires.UTC().Format(time.RFC3339)
	}
	if s.auth != nil && cred != "" {
		out["csrf_token"] = s.csrfToken(cred)
	}
	return out
}

// handleSignIn takes {"token": "..."} and keeps it in the session cookie.
// API keys are refused: a key kept by a browser would outlive the session.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil {
		writeError(w, r, s.log, files.E("sign in", files.KindNotFound, "", "this server serves its local user alone: there is nothing to sign in to", nil))
		return
	}
	var body struct {
		Token string `json:"token"`
	}
	if err := readJSON(r, &body, `{"token": "<a token from POST /api/tokens or your identity provider>"}`); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	if strings.HasPrefix(body.Token, auth.KeyPrefix) {
		writeError(w, r, s.log, files.E("sign in", files.KindInvalid, "", "sign in with a token (POST /api/tokens mints one from your API key), never the API key itself: a browser would keep the key past the session", nil))
		return
	}
	p, err := s.auth.Authenticate(r.Context(), body.Token)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	infoOf(w).credential = p.ID
	http.SetCookie(w, s.sessionCookie(body.Token, p.Expires))
	writeResult(w, s.sessionJSON(p, body.Token))
}

// sessionCookie is the session's cookie: out of the page script's reach
// (HttpOnly), never sent by another site's request (SameSite=Strict), and
// only over TLS when the public URL is https.
func (s *Server) sessionCookie(value string, expires time.Time) *http.Cookie {
	return &http.Cookie{Name: sessionCookie, Value: value, Path: "/", Expires: expires, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: strings.HasPrefix(s.links.Base, "https:")}
}

// handleSession says who the request is signed in as.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	cred, _ := sessionCredential(r)
	writeResult(w, s.sessionJSON(auth.FromContext(r.Context()), cred))
}

// handleSignOut forgets the session cookie.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	c := s.sessionCookie("", time.Time{})
	c.MaxAge = -1
	http.SetCookie(w, c)
	writeResult(w, map[string]any{"signed_out": true})
}
