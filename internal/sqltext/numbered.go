package sqltext

import (
	"strconv"
	"strings"
)

// Numbered rewrites a query's "?" placeholders as PostgreSQL's $1, $2, …
// in order, leaving those inside quoted strings and identifiers alone: a
// query is written once, in the form SQLite takes, and both indexes run
// it.
func Numbered(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
