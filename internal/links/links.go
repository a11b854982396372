// Package links builds the browser links of files. It is a leaf so that
// the HTTP door and the worker processes, which report links in a run's
// results, build the same ones.
//
// It must never import a convfiles package but internal/signing.
package links

import (
	"net/url"
	"strings"
)

// Links builds the browser links of files. Base is the public URL of the
// server, such as "http://127.0.0.1:8080" or "https://files.example.com/cf".
type Links struct {
	Base string
	// Sign, when set, makes every link expire and carry its signature.
	Sign *Signer
}

// URL returns the link of name in a conversation: every path segment is
// percent-encoded once, so names with spaces, "%" or non-ASCII letters
// survive the trip through a browser.
func (l Links) URL(conversation, name string) string {
	if conversation == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(l.Base, "/"))
	b.WriteString("/files/")
	b.WriteString(url.PathEscape(conversation))
	for _, seg := range strings.Split(name, "/") {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(seg))
	}
	if l.Sign != nil {
		b.WriteByte('?')
		b.WriteString(l.Sign.Query(conversation, name))
	}
	return b.String()
}
