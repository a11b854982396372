package files

import (
	"errors"
	"fmt"
)

// Kind classifies an Error so that each front door can map it to its own
// status (an HTTP code, a JS exception type, an exit code) in one place.
type Kind int

// The kinds of Error. The zero value is KindInternal so that an unclassified
// failure is never shown to users as their fault.
const (
	KindInternal        Kind = iota // an unexpected failure: disk, permissions, bugs
	KindInvalid                     // the caller's input breaks a rule (a bad name, a bad argument)
	KindNotFound                    // the file or conversation does not exist
	KindConflict                    // the target is in a state that forbids the operation (a folder where a file is expected)
	KindTooLarge                    // a size limit would be exceeded (file, conversation quota, per-execution bytes)
	KindForbidden                   // the operation is not allowed here (outside a read root, a symbolic link)
	KindCancelled                   // the caller or the server stopped the operation before it finished; nothing changed
	KindNoSpace                     // the disk (or its quota for convfiles) is full; nothing changed
	KindUnauthenticated             // no credential, or one that is unknown, altered, expired or revoked
	KindUnavailable                 // the index or the object store cannot be reached, or is saturated, or the server's deadline passed: retry later
)

// String returns the kind's stable name, used in JSON error envelopes.
func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindNotFound:
		return "not_found"
	case KindConflict:
		return "conflict"
	case KindTooLarge:
		return "too_large"
	case KindForbidden:
		return "forbidden"
	case KindCancelled:
		return "cancelled"
	case KindNoSpace:
		return "no_space"
	case KindUnauthenticated:
		return "unauthenticated"
	case KindUnavailable:
		return "unavailable"
	default:
		return "internal"
	}
}

// Error is the one error type of convfiles. Op names the operation ("write",
// "read", "validate name"), Name the file or conversation it concerned, Msg a
// sentence for the user saying what was wrong and what is allowed, and Err the
// underlying cause, if any.
type Error struct {
	Op   string
	Kind Kind
	Name string
	Msg  string
	Err  error
}

// Error formats the error as "op name: message: cause".
func (e *Error) Error() string {
	s := e.Op
	if e.Name != "" {
		s += " " + quoteName(e.Name)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil && e.Kind == KindInternal {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// E builds an Error. It is a short constructor for the many call sites.
func E(op string, kind Kind, name, msg string, cause error) *Error {
	return &Error{Op: op, Kind: kind, Name: name, Msg: msg, Err: cause}
}

// KindOf reports the Kind of err: the kind of the first *Error in its chain,
// or KindInternal when there is none.
func KindOf(err error) Kind {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Kind
	}
	return KindInternal
}

// MessageOf returns a message safe to show a user: the Error's own text for
// every kind but KindInternal, whose causes may leak host paths and are
// therefore replaced by "internal error".
func MessageOf(err error) string {
	var fe *Error
	if errors.As(err, &fe) && fe.Kind != KindInternal {
		return fe.Error()
	}
	return "internal error"
}

// quoteName quotes a name for an error message so that control characters in
// hostile input are shown escaped, never printed raw, and long names are cut.
func quoteName(name string) string {
	const max = 120
	if len(name) > max {
		return fmt.Sprintf("%q…", name[:max])
	}
	return fmt.Sprintf("%q", name)
}

// errExists is the conflict of a name that is taken where a new one was
// needed. It wraps fs.ErrExist, so a door can tell the caller how to
// proceed (another name, or a write that replaces) without reading text.
// ErrIsFolder is the cause of a KindConflict error about a folder where a
// file was expected.
var ErrIsFolder = errors.New("is a folder")

// ErrCommitUnknown is the cause of a change whose commit was sent to the
// index and never answered (the connection was lost on the way): the
// index may have recorded it. Nothing the commit named may be undone then;
// the caller is told the outcome is unknown, and reads before retrying.
var ErrCommitUnknown = errors.New("the commit was sent and not answered")

// ErrChanged is the cause of a write refused by WriteOptions.IfUnchanged:
// the file changed after it was read.
var ErrChanged = errors.New("the file changed after it was read")

// Unavailable is the error of a store that cannot answer now: what is
// the store's fault and passes, never the caller's. The message names the
// part that failed in the caller's terms (never an internal key) and says
// to retry.
func Unavailable(op, name, what string, cause error) *Error {
	return E(op, KindUnavailable, name, what+"; nothing was changed, try again shortly", cause)
}
