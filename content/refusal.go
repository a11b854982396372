package content

import (
	"errors"
	"fmt"
)

// The reasons a format helper refuses a file or a request. Callers map them
// to their own terms (an HTTP status, a files.Kind) with errors.Is.
var (
	// ErrDamaged: the bytes are not a valid file of the format.
	ErrDamaged = errors.New("damaged file")
	// ErrTooLarge: the file would take more memory or time than allowed
	// (an image bomb, a zip bomb, too many pages).
	ErrTooLarge = errors.New("too large")
	// ErrUnsupported: the format or the feature is not handled.
	ErrUnsupported = errors.New("unsupported")
	// ErrBadRequest: an argument is wrong (a cell reference, a page number).
	ErrBadRequest = errors.New("bad request")
	// ErrMissing: the thing named inside the file (a sheet, a page, a form
	// field) does not exist.
	ErrMissing = errors.New("missing")
)

// Refusal is a format helper's error: a message for the user, and the
// reason, one of the Err values above, for errors.Is.
type Refusal struct {
	Reason error
	Msg    string
}

func (r *Refusal) Error() string { return r.Msg }

// Unwrap returns the reason.
func (r *Refusal) Unwrap() error { return r.Reason }

// Refuse returns a Refusal with the reason and a formatted message.
func Refuse(reason error, format string, args ...any) error {
	return &Refusal{Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// Guard runs f and turns a panic inside it (third-party parsers panic on
// some malformed files) into an ErrDamaged refusal naming what was read.
func Guard(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = Refuse(ErrDamaged, "%s is damaged and cannot be read (%v)", what, r)
		}
	}()
	return f()
}
