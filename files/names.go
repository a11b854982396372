package files

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Name rules. They are exported so that documentation, prompts and error
// messages can quote the same numbers the validator enforces.
const (
	MaxConversationIDLen = 128  // bytes in a conversation ID
	MaxComponentBytes    = 255  // bytes in one component of a file name
	MaxNameBytes         = 1024 // bytes in a whole file name
	MaxNameDepth         = 16   // components in a file name
	// ReservedPrefix starts every name convfiles keeps for itself (temporary
	// files of atomic writes, conversations being deleted). No component of a
	// user's name may start with it, in any letter case.
	ReservedPrefix = ".convfiles-"
)

// nameRules is the sentence every name error ends with, so a user learns what
// is allowed, not only what was wrong.
const nameRules = "a file name is a relative path like \"report.csv\" or \"data/2024/q1.json\": " +
	"components separated by \"/\", none empty, \".\" or \"..\", no backslash, NUL or control characters, " +
	"no invisible or direction-changing characters, at most 255 bytes each, 1024 bytes and 16 levels in all"

// ValidateConversationID checks a conversation ID: 1 to 128 characters of
// A–Z, a–z, 0–9, "_" and "-", not starting with "-". UUIDs fit.
func ValidateConversationID(id string) error {
	const op = "validate conversation id"
	const rules = "a conversation ID is 1 to 128 characters of A-Z, a-z, 0-9, \"_\" and \"-\", not starting with \"-\""
	if id == "" {
		return E(op, KindInvalid, id, "empty; "+rules, nil)
	}
	if len(id) > MaxConversationIDLen {
		return E(op, KindInvalid, id, fmt.Sprintf("%d bytes long; %s", len(id), rules), nil)
	}
	if id[0] == '-' {
		return E(op, KindInvalid, id, "starts with \"-\"; "+rules, nil)
	}
	for i := 0; i < len(id); i++ {
		if !isIDByte(id[i]) {
			return E(op, KindInvalid, id, fmt.Sprintf("character %q at byte %d is not allowed; %s", rune(id[i]), i, rules), nil)
		}
	}
	return nil
}

func isIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// ValidateName checks a file name from a user and returns it normalized to
// Unicode NFC, which is the form stored on disk and shown in links. It is a
// pure function: it never touches the file system. os.Root is the second
// wall behind it, not a replacement for it.
func ValidateName(name string) (string, error) {
	const op = "validate name"
	bad := func(format string, args ...any) (string, error) {
		return "", E(op, KindInvalid, name, fmt.Sprintf(format, args...)+"; "+nameRules, nil)
	}
	if name == "" {
		return bad("the name is empty")
	}
	if !utf8.ValidString(name) {
		return bad("the name is not valid UTF-8")
	}
	// Every rule applies to the name as it will be stored: NFC turns some
	// characters into others (the Kelvin sign U+212A into "K"), so a check
	// made before normalizing could pass a name that breaks a rule after.
	name = norm.NFC.String(name)
	for i, r := range name {
		switch {
		case r == 0:
			return bad("NUL byte at byte %d", i)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			return bad("control character %U at byte %d", r, i)
		case r == '\\':
			return bad("backslash at byte %d (use \"/\" to separate folders)", i)
		case invisible(r):
			return bad("invisible or direction-changing character %U at byte %d (it makes a name look like another)", r, i)
		case r == utf8.RuneError:
			return bad("replacement character U+FFFD at byte %d (a character was lost before the name arrived, such as a lone surrogate in JSON)", i)
		}
	}
	if name[0] == '/' {
		return bad("absolute paths are not allowed here")
	}
	if len(name) >= 2 && name[1] == ':' && isLetter(name[0]) {
		return bad("drive-letter paths are not allowed")
	}
	if len(name) > MaxNameBytes {
		return bad("the name is %d bytes long", len(name))
	}
	parts := strings.Split(name, "/")
	if len(parts) > MaxNameDepth {
		return bad("the name is %d levels deep", len(parts))
	}
	for _, p := range parts {
		switch {
		case joinerAtEdge(p):
			return bad("component %q starts or ends with a zero-width joiner, which joins nothing there", p)
		case p == "":
			return bad("empty path component (a leading, trailing or doubled \"/\")")
		case p == "." || p == "..":
			return bad("%q components are not allowed (no path traversal): a name stays inside the conversation's folder, as a basename only (\"passwd\") or a path below it (\"etc/passwd\")", p)
		case len(p) > MaxComponentBytes:
			return bad("component %.20q… is %d bytes long", p, len(p))
		case IsReserved(p):
			return bad("names starting with %q are reserved for convfiles", ReservedPrefix)
		}
	}
	return name, nil
}

// IsReserved reports whether one path component is reserved for convfiles'
// own use (see ReservedPrefix). Listings skip such entries.
func IsReserved(component string) bool {
	return len(component) >= len(ReservedPrefix) && strings.EqualFold(component[:len(ReservedPrefix)], ReservedPrefix)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// invisible reports whether r draws nothing yet changes how a name reads:
// the bidirectional controls (which show "exe.txt" as "txt.exe") and the
// zero-width spaces, word joiner and byte-order mark. The zero-width
// joiner and non-joiner are kept: Persian words and emoji sequences need
// them (joinerAtEdge refuses them where they join nothing).
func invisible(r rune) bool {
	switch {
	case r == 0x061C, r == 0x180E, r == 0x200B, r == 0x200E, r == 0x200F, r == 0x2060, r == 0xFEFF:
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// joinerAtEdge reports whether a name component starts or ends with a
// zero-width joiner or non-joiner.
func joinerAtEdge(p string) bool {
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	isJoiner := func(r rune) bool { return r == 0x200C || r == 0x200D }
	return p != "" && (isJoiner(first) || isJoiner(last))
}
