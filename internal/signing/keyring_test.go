package signing

import (
	"bytes"
	"strings"
	"testing"
)

// TestParseRoundTrip: a generated key reads back as written, and bad
// specs are refused with what is wrong.
func TestParseRoundTrip(t *testing.T) {
	k, err := Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Parse([]string{k.String()})
	if err != nil || len(r) != 1 || r[0].ID != "k1" || !bytes.Equal(r[0].Secret, k.Secret) {
		t.Fatalf("Parse(%q) = %v, %v", k.String(), r, err)
	}
	for spec, want := range map[string]string{
		"nocolon":         "id:secret",
		"bad id!:AAAA":    "id:secret",
		"k1:c2hvcnQ=":     "at least 32",
		"k1:not base64 !": "at least 32",
	} {
		if _, err := Parse([]string{spec}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", spec, err, want)
		}
	}
	if _, err := Parse([]string{k.String(), k.String()}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a key listed twice: %v", err)
	}
}

// TestDeriveSeparatesPurposes: subkeys for different purposes differ from
// each other and from the key, and parts cannot be shifted between them.
func TestDeriveSeparatesPurposes(t *testing.T) {
	k, _ := Generate("k1")
	a, b, c := k.Derive("link", "ab"), k.Derive("link", "a", "b"), k.Derive("token")
	if bytes.Equal(a.Secret, b.Secret) || bytes.Equal(a.Secret, c.Secret) || bytes.Equal(a.Secret, k.Secret) {
		t.Fatal("two purposes share a subkey")
	}
	if bytes.Equal(k.MAC("ab", "c"), k.MAC("a", "bc")) {
		t.Fatal("MAC of shifted parts is equal")
	}
}
