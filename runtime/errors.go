package runtime

import (
	"convfiles/files"
)

// ErrorNames maps each files.Kind to the JS error name a script sees, so a
// script can tell a bad name from a missing file from a full quota:
//
//	try { read_file("x") } catch (e) { if (e.name === "FileNotFoundError") … }
var ErrorNames = map[files.Kind]string{
	files.KindInvalid:         "ValidationError",
	files.KindNotFound:        "FileNotFoundError",
	files.KindTooLarge:        "LimitError",
	files.KindForbidden:       "PermissionError",
	files.KindConflict:        "ConflictError",
	files.KindInternal:        "InternalError",
	files.KindCancelled:       "CancelledError",
	files.KindNoSpace:         "StorageFullError",
	files.KindUnauthenticated: "AuthenticationError",
	files.KindUnavailable:     "UnavailableError",
}
