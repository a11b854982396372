// Package hostile holds the table of hostile names every door of convfiles
// is tested against, and a fixture that plants the traps (links leading
// out, a sibling conversation, canary files) and proves afterwards that not
// one byte outside the conversation was read or written.
//
// It is for tests only: nothing that ships imports it, and it never
// imports a door.
package hostile

import "strings"

// Outcome is what a door must do with a hostile name.
type Outcome int

// The outcomes.
const (
	// Refuse: the name is rejected with a clear error.
	Refuse Outcome = iota
	// Contain: the name is a legal, if odd, literal name; a write lands at
	// exactly that literal path inside the conversation.
	Contain
	// Trap: the name is a link planted by the fixture; reading through it is
	// refused, and a write replaces the link inside the conversation
	// without touching what it pointed at.
	Trap
)

// Case is one hostile file name.
type Case struct {
	Name    string
	Outcome Outcome
}

// Secret is the content of every canary outside the conversation. No door
// may ever return it.
const Secret = "TOP-SECRET-CANARY"

// EscapeTarget is an absolute path some cases aim at; it must never appear.
const EscapeTarget = "/tmp/convfiles-hostile-escape.txt"

// Names returns the hostile file names: traversal in its spellings,
// absolute paths, NUL and control bytes, backslashes, encoded dots that must
// stay literal, a sibling conversation, planted links, over-long names and
// reserved names.
func Names() []Case {
	return []Case{
		{"../escape.txt", Refuse},
		{"../../../../../../etc/passwd", Refuse},
		{"a/../../escape.txt", Refuse},
		{"sub/../../../../../tmp/convfiles-hostile-escape.txt", Refuse},
		{"..", Refuse},
		{".", Refuse},
		{"./escape.txt", Refuse},
		{"sub/./escape.txt", Refuse},
		{"sub/..", Refuse},
		{"../c1-sibling/canary.txt", Refuse},
		{"../c1-sibling", Refuse},
		{EscapeTarget, Refuse},
		{"/etc/passwd", Refuse},
		{"//etc/passwd", Refuse},
		{"..\\escape.txt", Refuse},
		{"sub\\..\\..\\escape.txt", Refuse},
		{"C:\\Windows\\win.ini", Refuse},
		{"C:/escape.txt", Refuse},
		{"a\x00b.txt", Refuse},
		{"escape.txt\x00.png", Refuse},
		{"\x01ctrl.txt", Refuse},
		{"new\nline.txt", Refuse},
		{"carriage\rreturn.txt", Refuse},
		{"tab\tname.txt", Refuse},
		{"del\x7f.txt", Refuse},
		{"c1\u0085control.txt", Refuse},
		{"\xff\xfeinvalid.txt", Refuse},
		{"", Refuse},
		{"a//b.txt", Refuse},
		{"trailing/", Refuse},
		{strings.Repeat("x", 256), Refuse},
		{strings.Repeat("d/", 16) + "deep.txt", Refuse},
		{strings.Repeat(strings.Repeat("n", 250)+"/", 5) + "long.txt", Refuse},
		{".convfiles-tmp-evil", Refuse},
		{"sub/.convfiles-trash-evil/x", Refuse},
		{".CONVFILES-TMP-evil", Refuse},
		{"link-out/secret.txt", Refuse},
		{"link-out/new.txt", Refuse},
		{"%2e%2e/escape.txt", Contain},
		{"..%2fescape.txt", Contain},
		{"%252e%252e", Contain},
		{"．．/fullwidth.txt", Contain},
		{" ../leading-space.txt", Contain},
		{"..../dots.txt", Contain},
		{"link-file", Trap},
		{"dangling", Trap},
	}
}

// ConversationIDs returns hostile conversation IDs; every door refuses them.
func ConversationIDs() []string {
	return []string{
		"..", ".", "../c1", "c1/../c1-sibling", "-rf", "", "a b", "c1\x00", "%2e%2e",
		"c1%2f..", "\u00e9", strings.Repeat("a", 129), "/tmp", "c1\\..",
	}
}
