package links

import (
	"errors"
	"net/url"
	"strconv"
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
		"a flipped signature":  {"conv-1", "dir/a b.txt", func(v url.Values) { v.Set("sig", flipFirst(v.Get("sig"))) }, ErrBadSig},
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
		// The link route reads the raw query without building a map.
		if err := s.VerifyQuery(tc.conv, tc.file, v.Encode()); !errors.Is(err, tc.want) {
			t.Errorf("%s, raw query: %v, want %v", name, err, tc.want)
		}
	}
	raw := strings.SplitN(link, "?", 2)[1]
	for what, tc := range map[string]struct {
		raw  string
		want error
	}{
		"the link's own query":           {raw, nil},
		"its key ID percent-encoded":     {strings.Replace(raw, "kid=k2", "kid=k%32", 1), nil},
		"a download asked beside it":     {"download=1&" + raw, nil},
		"a signature far too long":       {raw + strings.Repeat("A", 100), ErrBadSig},
		"a signature that is not base64": {strings.Replace(raw, "sig=", "sig=!", 1), ErrBadSig},
		"an expiry that is not a number": {strings.Replace(raw, "exp=", "exp=x", 1), ErrBadSig},
	} {
		if err := s.VerifyQuery("conv-1", "dir/a b.txt", tc.raw); !errors.Is(err, tc.want) {
			t.Errorf("raw query with %s: %v, want %v", what, err, tc.want)
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
	// A key ID given a new secret: the cached derived key of the old one
	// must not verify for it.
	s.Keys = append(ring(t, "k2"), s.Keys[1:]...)
	if err := s.VerifyQuery("conv-1", "dir/a b.txt", raw); !errors.Is(err, ErrBadSig) {
		t.Errorf("a link of k2's old secret after k2 got a new one: %v", err)
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

// TestLinksLiveAWeekAtMost: a link signed to expire in ten years (by a
// worker holding its conversation's key, or a server configured so) is
// refused, one of a week is not; a Signer limited to a credential's end
// never signs past it.
func TestLinksLiveAWeekAtMost(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	keys := ring(t, "k1")
	server := &Signer{Keys: keys, Now: clock}
	for ttl, want := range map[time.Duration]error{
		10 * 365 * 24 * time.Hour: ErrTooLong,
		MaxLifetime + time.Hour:   ErrTooLong,
		MaxLifetime:               nil,
		time.Hour:                 nil,
	} {
		worker := (&Signer{Keys: keys, TTL: ttl, Now: clock}).ForConversation("conv-1")
		v, _ := url.ParseQuery(worker.Query("conv-1", "a.txt"))
		if err := server.Verify("conv-1", "a.txt", v); !errors.Is(err, want) && err != want {
			t.Errorf("a link of %v: %v, want %v", ttl, err, want)
		}
	}
	strict := &Signer{Keys: keys, Now: clock, MaxLifetime: 2 * time.Hour}
	v3h, _ := url.ParseQuery((&Signer{Keys: keys, TTL: 3 * time.Hour, Now: clock}).Query("conv-1", "a.txt"))
	if err := strict.Verify("conv-1", "a.txt", v3h); !errors.Is(err, ErrTooLong) {
		t.Errorf("a 3 h link on a server whose links live 2 h: %v", err)
	}
	end := now.Add(3 * time.Second)
	limited := server.LimitedTo(end)
	v, _ := url.ParseQuery(limited.Query("conv-1", "a.txt"))
	if v.Get("exp") != strconv.FormatInt(end.Unix(), 10) {
		t.Fatalf("a link for a credential ending at %d expires at %s", end.Unix(), v.Get("exp"))
	}
	if err := server.Verify("conv-1", "a.txt", v); err != nil {
		t.Fatal(err)
	}
	now = end
	if err := server.Verify("conv-1", "a.txt", v); !errors.Is(err, ErrExpired) {
		t.Fatalf("after the credential's end: %v", err)
	}
}

// flipFirst changes a signature's first character (to one it is not: a
// fixed replacement left one signature in 64 as it was).
func flipFirst(sig string) string {
	if sig[0] == 'A' {
		return "B" + sig[1:]
	}
	return "A" + sig[1:]
}
