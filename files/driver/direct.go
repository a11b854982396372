package driver

import (
	"time"

	"convfiles/files"
)

// DirectHeaders are the response headers a store is asked to send with
// bytes it serves to a client itself, so that a browser treats them as
// convfiles would: the same type, the same inline or attachment choice,
// and no caching of a link that may change.
type DirectHeaders struct {
	ContentType        string
	ContentDisposition string
	CacheControl       string
}

// DirectLinker is what a Blob kept in an object store may offer: a URL at
// which a client fetches the bytes straight from the store.
type DirectLinker interface {
	// DirectURL returns a URL that fetches the Blob's bytes from where
	// they are kept, with the headers h, valid for ttl; "" when this
	// Blob has none (its object may be rewritten while it is fetched).
	DirectURL(ttl time.Duration, h DirectHeaders) (string, error)
}

// DirectURL returns a URL at which a client can fetch b's bytes straight
// from the store that keeps them, for ttl, answered with the headers h,
// without this process relaying them; ok is false when b's store cannot
// (a local file, a small object served from memory). The URL is a
// credential for these bytes until it expires: hand it only to a client
// that may read them.
func DirectURL(b files.Blob, ttl time.Duration, h DirectHeaders) (url string, ok bool, err error) {
	dl, isLinker := b.(DirectLinker)
	if !isLinker {
		return "", false, nil
	}
	url, err = dl.DirectURL(ttl, h)
	return url, err == nil && url != "", err
}
