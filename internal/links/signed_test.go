package links

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"convfiles/internal/signing"
)

func ring(t *testing.T, ids ...string) signing.Keyring {
	t.Helper()
	var r signing.Keyring
	for _, id := range ids {
		k, err := signing.Generate(id)
		if err != nil {
			t.Fatal(err)
		}
		r = append(r, k)
	}
	return r
}

// query returns the signature part of a link.
func query(t *testing.T, link string) url.Values {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// TestSignedLinks: a link verifies for its own conversation and name until
// it expires; altering any part, or a key that was dropped, refuses it.
func TestSignedLinks(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := &Signer{Keys: ring(t, "k2", "k1"), TTL: time.Hour, Now: func() time.Time { return now }}
	l := Links{Base: "https://files.example", Sign: s}
	link := l.URL("conv-1", "dir/a b.txt")
	if !strings.HasPrefix(link, "https://files.example/files/conv-1/dir/a%20b.txt?exp=") || !strings.Contains(link, "&kid=k2&sig=") {
		t.Fatalf("link %q", link)
	}
	q := query(t, link)
	if err := s.Verify("conv-1", "dir/a b.txt", q); err != nil {
		t.Fatalf("own link refused: %v", err)
	}
	for name, tc := range map[string]struct {
		conv, file string
		q          func(url.Values)
		want       error
	}{
		"another file":         {"conv-1", "dir/other.txt", nil, ErrBadSig},
		"another conversation": {"conv-2", "dir/a b.txt", nil, ErrBadSig},
		"a later expiry":       {"conv-1", "dir/a b.txt", func(v url.Values) { v.Set("exp", "9999999999") }, ErrBadSig},
		"an unknown key":       {"conv-1", "dir/a b.txt", func(v url.Values) { v.Set("kid", "k9") }, ErrBadSig},
		"a flipped signature":  {"conv-1", "dir/a b.txt", func(v url.Values) { v.Set("sig", "A"+v.Get("sig")[1:]) }, ErrBadSig},
		"no signature":         {"conv-1", "dir/a b.txt", func(v url.Values) { v.Del("exp"); v.Del("kid"); v.Del("sig") }, ErrUnsigned},
	} {
		v := url.Values{}
		for k, vs := range q {
			v[k] = append([]string(nil), vs...)
		}
		if tc.q != nil {
			tc.q(v)
		}
		if err := s.Verify(tc.conv, tc.file, v); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	now = now.Add(61 * time.Minute)
	if err := s.Verify("conv-1", "dir/a b.txt", q); !errors.Is(err, ErrExpired) {
		t.Errorf("after its TTL: %v, want expired", err)
	}
	now = now.Add(-61 * time.Minute)
	// Rotation: a new key in front signs; the old one still verifies until dropped.
	rotated := &Signer{Keys: append(ring(t, "k3"), s.Keys...), Now: s.Now}
	if err := rotated.Verify("conv-1", "dir/a b.txt", q); err != nil {
		t.Errorf("old link after rotation: %v", err)
	}
	dropped := &Signer{Keys: rotated.Keys[:1], Now: s.Now}
	if err := dropped.Verify("conv-1", "dir/a b.txt", q); !errors.Is(err, ErrBadSig) {
		t.Errorf("old link after its key was dropped: %v", err)
	}
}

// TestConversationSigner: a worker's signer signs its own conversation's
// links, which the server verifies, and no other conversation's.
func TestConversationSigner(t *testing.T) {
	s := &Signer{Keys: ring(t, "k1")}
	w := s.ForConversation("conv-1")
	if q := w.Query("conv-2", "a.txt"); q != "" {
		t.Fatalf("signed another conversation's link: %q", q)
	}
	v, err := url.ParseQuery(w.Query("conv-1", "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify("conv-1", "a.txt", v); err != nil {
		t.Fatalf("server refused the worker's link: %v", err)
	}
	if err := s.Verify("conv-2", "a.txt", v); !errors.Is(err, ErrBadSig) {
		t.Fatalf("the signature passed for another conversation: %v", err)
	}
}
