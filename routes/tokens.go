package routes

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"convfiles/auth"
	"convfiles/files"
)

// maxJSONBody bounds the small JSON bodies of the API.
const maxJSONBody = 64 << 10

// readJSONBody reads a small JSON body (rename, copy, tokens, sign-in):
// declared as JSON, at most 64 KiB, valid UTF-8. example shows the caller
// what to send.
func readJSONBody(r *http.Request, example string) ([]byte, error) {
	const op = "read request"
	if fe := requireJSON(r); fe != nil {
		return nil, files.E(op, files.KindInvalid, "", fe.message+", as in "+example, nil)
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	switch {
	case err != nil:
		return nil, files.E(op, files.KindInvalid, "", "the body could not be read", err)
	case len(raw) > maxJSONBody:
		return nil, files.E(op, files.KindTooLarge, "", "the body is larger than 64 KiB", nil)
	case !utf8.Valid(raw):
		// encoding/json would quietly turn the bad bytes into U+FFFD.
		return nil, files.E(op, files.KindInvalid, "", "the body is not valid UTF-8", nil)
	}
	return raw, nil
}

// readJSON decodes a small JSON body into v, refusing fields v does not
// have: a misspelt "ttl" must not silently mint a 15-minute token.
func readJSON(r *http.Request, v any, example string) error {
	raw, err := readJSONBody(r, example)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return files.E("read request", files.KindInvalid, "", "send a JSON body like "+example+": "+err.Error(), nil)
	}
	return nil
}

// tokenRequestJSON is the body of POST /api/tokens.
type tokenRequestJSON struct {
	// Scopes is a list or a space-separated string; empty, the key's own
	// scopes but admin.
	Scopes        json.RawMessage `json:"scopes"`
	Tenant        string          `json:"tenant"`
	Conversations []string        `json:"conversations"`
	TTLSeconds    int64           `json:"ttl_seconds"`
}

// handleMintToken mints a conversation token for the request's API key:
// a short-lived credential for an agent or a browser, reaching at most
// what the key reaches.
func (s *Server) handleMintToken(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil {
		writeError(w, r, s.log, files.E("mint token", files.KindNotFound, "", "tokens are minted in hosted mode; this server serves its local user alone", nil))
		return
	}
	var body tokenRequestJSON
	const example = `{"scopes": ["read"], "conversations": ["chat-42"], "ttl_seconds": 900}`
	if err := readJSON(r, &body, example); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	scopes, err := parseScopesJSON(body.Scopes)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	// Checked before any arithmetic: seconds times 10⁹ overflows past
	// 292 years, and 18446744074 s wrapped to a 0.29 s token.
	if body.TTLSeconds < 0 || body.TTLSeconds > int64(auth.MaxTokenTTL/time.Second) {
		writeError(w, r, s.log, files.E("mint token", files.KindInvalid, strconv.FormatInt(body.TTLSeconds, 10),
			"ttl_seconds is out of range: a token lives from 1s to "+auth.MaxTokenTTL.String()+" (1 to 86400 seconds); leave it out for 15m", nil))
		return
	}
	tok, err := s.auth.Mint(auth.FromContext(r.Context()), auth.TokenRequest{Scopes: scopes, Tenant: body.Tenant,
		Conversations: body.Conversations, TTL: time.Duration(body.TTLSeconds) * time.Second})
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeResult(w, tok)
}

// parseScopesJSON reads scopes written as ["read", "write"] or "read write".
func parseScopesJSON(raw json.RawMessage) (auth.Scope, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			return 0, files.E("mint token", files.KindInvalid, "", `"scopes" is a list like ["read", "write"] or a string like "read write"`, nil)
		}
		list = []string{one}
	}
	return auth.ParseScopes(strings.Join(list, " "))
}
