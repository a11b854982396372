package files

import (
	"context"
	"strings"
)

// Allowance is how many bytes a set of conversations may hold together:
// the quota of the credential a change is made with (an API key made with
// a maximum), carried by the change's context. Every conversation's own
// limit (Limits.MaxConversationBytes) holds as well.
type Allowance struct {
	// Tenant and Conversations say which conversations count: those
	// whose ID starts with Tenant, or exactly Conversations; neither
	// means every conversation.
	Tenant        string
	Conversations []string
	MaxBytes      int64
}

// Lock names the allowance for the lock a transaction takes before it
// measures it: two changes measuring the same conversations wait for
// each other, so both cannot pass on the same room.
func (a Allowance) Lock() string {
	if len(a.Conversations) > 0 {
		return "allowance:conversations:" + strings.Join(a.Conversations, "\n")
	}
	return "allowance:tenant:" + a.Tenant
}

// TenantRange is the half-open range [lo, hi) of the conversation IDs
// that start with the tenant, for an index that compares bytes; hi is ""
// for no tenant (every conversation). A tenant is ASCII and ends in "-"
// or "_" (auth.ValidateTenant), so its last byte plus one is the bound.
func (a Allowance) TenantRange() (lo, hi string) {
	t := a.Tenant
	if t == "" {
		return "", ""
	}
	return t, t[:len(t)-1] + string(t[len(t)-1]+1)
}

type allowanceKey struct{}

// WithAllowance returns ctx carrying a, which every change made with ctx
// must stay within.
func WithAllowance(ctx context.Context, a *Allowance) context.Context {
	return context.WithValue(ctx, allowanceKey{}, a)
}

// AllowanceFrom returns the allowance ctx carries, or nil.
func AllowanceFrom(ctx context.Context) *Allowance {
	a, _ := ctx.Value(allowanceKey{}).(*Allowance)
	return a
}
