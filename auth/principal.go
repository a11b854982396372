// Package auth says who is asking and what they may do. A request's
// credential (an API key, a conversation token minted by a key, or a JWT
// from an identity provider) becomes a Principal: an ID for logs, scopes,
// and the conversations it reaches. Links are signed with the same
// rotating keys that sign tokens. The check itself (may this principal do
// that to this conversation) is ops.Authorize, once for every door.
//
// auth must never import HTTP, SQL or a storage implementation: the
// databases keep key rows (internal/keyrows) and StoredKeys decodes them.
package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"convfiles/files"
)

// Scope is a set of permissions.
type Scope uint8

// The scopes a credential may hold. Admin implies the others and adds what
// spans conversations: listing them all, removing one, minting tokens for
// any of them.
const (
	Read Scope = 1 << iota
	Write
	Execute
	Admin

	// AllScopes is every scope: the local user's.
	AllScopes = Read | Write | Execute | Admin
)

var scopeNames = []struct {
	s    Scope
	name string
}{{Read, "read"}, {Write, "write"}, {Execute, "execute"}, {Admin, "admin"}}

// ParseScopes reads scope names separated by spaces or commas ("read
// write"). An unknown name is an error that lists the known ones.
func ParseScopes(s string) (Scope, error) {
	var out Scope
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		sc, ok := scopeNamed(f)
		if !ok {
			return 0, files.E("parse scopes", files.KindInvalid, f, "is not a scope; scopes are read, write, execute and admin", nil)
		}
		out |= sc
	}
	return out, nil
}

func scopeNamed(name string) (Scope, bool) {
	for _, n := range scopeNames {
		if n.name == name {
			return n.s, true
		}
	}
	return 0, false
}

// Has reports whether s holds every scope of need; admin holds them all.
func (s Scope) Has(need Scope) bool { return s&Admin != 0 || s&need == need }

// within is the part of s that of allows: all of it under admin.
func (s Scope) within(of Scope) Scope {
	if of&Admin != 0 {
		return s
	}
	return s & of
}

// String lists the scopes by name, separated by spaces.
func (s Scope) String() string {
	var names []string
	for _, n := range scopeNames {
		if s&n.s != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, " ")
}

// Principal is who is asking: the credential's ID (for logs and limits;
// never a secret), what it may do, and which conversations it reaches.
type Principal struct {
	// ID names the credential: "key:<id>", "token:<key id>", "jwt:<sub>"
	// or "local".
	ID string
	// Key is the API key this credential is, or that minted it.
	Key    string
	Scopes Scope
	// Tenant, when set, is the conversation-ID prefix of every
	// conversation the principal reaches.
	Tenant string
	// Conversations, when set, are the only conversations it reaches.
	Conversations []string
	// Expires is when the credential stops working; zero: never.
	Expires time.Time
	// Allowance is the quota of the key behind the credential, over the
	// key's conversations (a token's may be fewer); nil: none.
	Allowance *files.Allowance
}

// Local is the principal of a local server, the CLI and stdio MCP: the
// user who owns the data folder.
var Local = &Principal{ID: "local", Scopes: AllScopes}

// Reaches reports whether conv is one of the principal's conversations.
func (p *Principal) Reaches(conv string) bool {
	if len(p.Conversations) > 0 {
		return slices.Contains(p.Conversations, conv)
	}
	return strings.HasPrefix(conv, p.Tenant)
}

// Namespace is the folder, ending in "/", of what the principal keeps
// apart from everyone else (saved code): "" for the local user; for a
// credential bound to conversations, the folder of those conversations
// (two tokens of one key, for two conversations, never share saved code);
// else the tenant's or the key's own folder.
func (p *Principal) Namespace() string {
	switch {
	case p == Local:
		return ""
	case len(p.Conversations) == 1:
		return "conversation-" + p.Conversations[0] + "/"
	case len(p.Conversations) > 1:
		sorted := slices.Sorted(slices.Values(p.Conversations))
		sum := sha256.Sum256([]byte(strings.Join(sorted, "\x00")))
		return "conversations-" + hex.EncodeToString(sum[:8]) + "/"
	case p.Tenant != "":
		return "tenant-" + p.Tenant + "/"
	case p.Key != "":
		return "key-" + p.Key + "/"
	}
	sum := sha256.Sum256([]byte(p.ID))
	return "user-" + hex.EncodeToString(sum[:8]) + "/"
}

// Bound reports whether the principal reaches only some conversations.
func (p *Principal) Bound() bool { return p.Tenant != "" || len(p.Conversations) > 0 }

// Allow checks that the principal may act with need on conv. A
// conversation it does not reach is answered as a missing one, whether or
// not it exists, so a credential never learns of another tenant's
// conversations; a missing scope is a refusal that names it.
func (p *Principal) Allow(conv string, need Scope) error {
	if !p.Reaches(conv) {
		return files.E("authorize", files.KindNotFound, conv, "no such conversation", nil)
	}
	return p.Require(need)
}

// Require checks that the principal holds need, for what belongs to no
// one conversation.
func (p *Principal) Require(need Scope) error {
	if !p.Scopes.Has(need) {
		return files.E("authorize", files.KindForbidden, "", fmt.Sprintf("this credential may %s, not %s", orNothing(p.Scopes), need), nil)
	}
	return nil
}

func orNothing(s Scope) string {
	if s == 0 {
		return "do nothing"
	}
	return s.String()
}

type principalKey struct{}

// NewContext returns ctx carrying p, and p's allowance for every change
// made with ctx to stay within.
func NewContext(ctx context.Context, p *Principal) context.Context {
	if p != nil && p.Allowance != nil {
		ctx = files.WithAllowance(ctx, p.Allowance)
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal ctx carries, or nil.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// ValidateTenant checks a tenant prefix: the start of a conversation ID
// ending in "-" or "_", so that tenant "acme-" never reaches "acmecorp-1".
func ValidateTenant(t string) error {
	const rules = "a tenant is the start of a conversation ID ending in \"-\" or \"_\" (like \"acme-\"), so that it never reaches another tenant whose name starts the same"
	if t == "" {
		return nil
	}
	if last := t[len(t)-1]; last != '-' && last != '_' {
		return files.E("validate tenant", files.KindInvalid, t, "does not end in \"-\" or \"_\"; "+rules, nil)
	}
	if !strings.ContainsFunc(t[:len(t)-1], func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' }) {
		return files.E("validate tenant", files.KindInvalid, t, "has no letter or digit before its separator, so it would start almost every conversation ID; "+rules, nil)
	}
	if err := files.ValidateConversationID(t); err != nil {
		return files.E("validate tenant", files.KindInvalid, t, "is not the start of a conversation ID; "+rules, nil)
	}
	return nil
}

// TenantsOverlap reports whether two different tenant prefixes reach
// some of the same conversations: one starts the other ("acme-" and
// "acme-corp-"), so a credential of the shorter reaches the longer's.
func TenantsOverlap(a, b string) bool {
	return a != "" && b != "" && a != b && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
}
