package files

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValidateConversationID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"c1", true},
		{"3f2b6c1e-8a4d-4f5e-9b7a-0c1d2e3f4a5b", true},
		{"under_score-dash", true},
		{strings.Repeat("a", 128), true},
		{"", false},
		{strings.Repeat("a", 129), false},
		{"-leading-dash", false},
		{"..", false},
		{".", false},
		{"a/b", false},
		{"a\\b", false},
		{"a b", false},
		{"a\x00b", false},
		{"é", false},
		{"c1%2e%2e", false},
		{".convfiles-trash", false},
	}
	for _, tt := range tests {
		err := ValidateConversationID(tt.id)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateConversationID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
		}
		if err != nil && (KindOf(err) != KindInvalid || !strings.Contains(err.Error(), "A-Z, a-z, 0-9")) {
			t.Errorf("ValidateConversationID(%q) error %q does not say what is allowed", tt.id, err)
		}
	}
}

func TestValidateName(t *testing.T) {
	deep := strings.Repeat("d/", 15) + "f"
	tests := []struct {
		name string
		want string // "" means invalid
		why  string // a fragment the error must contain
	}{
		{"report.csv", "report.csv", ""},
		{"data/2024/q1.json", "data/2024/q1.json", ""},
		{".hidden", ".hidden", ""},
		{"a..b", "a..b", ""},
		{"...", "...", ""},
		{"%2e%2e", "%2e%2e", ""},
		{"名前 with spaces.txt", "名前 with spaces.txt", ""},
		{"cafe\u0301.txt", "café.txt", ""}, // NFD in, NFC out
		{deep, deep, ""},
		{strings.Repeat("x", 255), strings.Repeat("x", 255), ""},
		{"", "", "empty"},
		{"/etc/passwd", "", "absolute"},
		{"../etc/passwd", "", `".." components`},
		{"a/../../b", "", `".." components`},
		{"..", "", `".." components`},
		{".", "", `"." components`},
		{"./a", "", `"." components`},
		{"a/./b", "", `"." components`},
		{"a//b", "", "empty path component"},
		{"a/", "", "empty path component"},
		{"a\\..\\b", "", "backslash"},
		{"a\x00b", "", "NUL"},
		{"a\nb", "", "control character"},
		{"a\x7fb", "", "control character"},
		{"a\u0085b", "", "control character"},
		{"\xff\xfe", "", "UTF-8"},
		{"C:/windows", "", "drive-letter"},
		{strings.Repeat("x", 256), "", "bytes long"},
		{strings.Repeat("d/", 16) + "f", "", "levels deep"},
		{strings.Repeat(strings.Repeat("x", 200)+"/", 6) + "f", "", "bytes long"},
		{".convfiles-tmp-1234", "", "reserved"},
		{"invoice\u202Etxt.exe", "", "direction-changing character U+202E"},
		{"report\u2066.pdf", "", "U+2066"},
		{"a\u200Bb.txt", "", "invisible"},
		{"\uFEFFnotes.md", "", "U+FEFF"},
		{"name\uFFFD.txt", "", "replacement character"},
		{"\u200Dstart.txt", "", "zero-width joiner"},
		{"می\u200Cخواهم.txt", "می\u200Cخواهم.txt", ""}, // Persian needs the non-joiner
		{"family\U0001F468\u200D\U0001F469.png", "family\U0001F468\u200D\U0001F469.png", ""},
		{"sub/.CONVFILES-x", "", "reserved"},
	}
	for _, tt := range tests {
		got, err := ValidateName(tt.name)
		if tt.want == "" {
			if err == nil {
				t.Errorf("ValidateName(%q) = %q, want an error", tt.name, got)
				continue
			}
			if KindOf(err) != KindInvalid || !strings.Contains(err.Error(), tt.why) || !strings.Contains(err.Error(), "relative path") {
				t.Errorf("ValidateName(%q) error = %q, want kind invalid mentioning %q and the rules", tt.name, err, tt.why)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ValidateName(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

// FuzzValidateName checks the promises every caller relies on: an accepted
// name is NFC, relative, free of "..", control bytes and backslashes, within
// the size rules, and validating it again changes nothing. Seeds live in
// testdata/fuzz/FuzzValidateName.
func FuzzValidateName(f *testing.F) {
	for _, s := range []string{"a.txt", "../x", "a/b/c", "\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := ValidateName(name)
		if err != nil {
			if KindOf(err) != KindInvalid {
				t.Fatalf("error kind %v for %q", KindOf(err), name)
			}
			return
		}
		if !utf8.ValidString(got) || strings.HasPrefix(got, "/") || strings.Contains(got, "\\") || len(got) > MaxNameBytes {
			t.Fatalf("accepted unsafe name %q", got)
		}
		for _, p := range strings.Split(got, "/") {
			if p == "" || p == "." || p == ".." || len(p) > MaxComponentBytes || IsReserved(p) {
				t.Fatalf("accepted unsafe component %q in %q", p, got)
			}
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("accepted control character in %q", got)
			}
		}
		again, err := ValidateName(got)
		if err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", name, got, again, err)
		}
	})
}
