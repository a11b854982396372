package sqltext

import "testing"

// TestNumbered: every placeholder outside quotes becomes the next $n, and
// a "?" inside a string or a quoted identifier stays a question mark.
func TestNumbered(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{`SELECT '?' FROM t WHERE "odd?" = ?`, `SELECT '?' FROM t WHERE "odd?" = $1`},
		{`SELECT 'it''s ?' , ?`, `SELECT 'it''s ?' , $1`},
		{`SELECT 1`, `SELECT 1`},
		{RevokeKey, `UPDATE api_keys SET revoked_on = COALESCE(revoked_on, $1) WHERE id = $2`},
	} {
		if got := Numbered(c.in); got != c.want {
			t.Errorf("Numbered(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
