package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"convfiles/files"

	"github.com/jackc/pgx/v5/pgconn"
)

// wrap turns a database error into a files.Error: KindUnavailable when
// the database cannot answer now (see unreachable), which a door answers
// with "retry later", and KindInternal for everything else.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if files.KindOf(err) != files.KindInternal {
		return err
	}
	if errors.Is(err, files.ErrCommitUnknown) {
		return files.E(op, files.KindUnavailable, "", "the connection to the metadata index was lost during the commit; "+
			"the change may have been made: read the file before you repeat it", err)
	}
	if errors.Is(err, context.Canceled) {
		return files.E(op, files.KindCancelled, "", "cancelled before it finished; nothing was changed", err)
	}
	if unreachable(err) {
		return files.Unavailable(op, "", "the metadata index (PostgreSQL) cannot be reached or is busy", err)
	}
	return files.E(op, files.KindInternal, "", "the metadata index failed", err)
}

// unreachable reports whether err says the database could not be asked
// (no connection, a connection lost, the server shutting down or out of
// connections, no pool connection free before the deadline) or asked it
// to try again (a serialization failure or a deadlock): nothing the
// request did wrong, and nothing that a retry a little later cannot fix.
func unreachable(err error) bool {
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		code := pgErr.Code
		return code[:2] == "08" || // connection exception
			code == "57P01" || code == "57P02" || code == "57P03" || // shutting down, cannot connect now
			code == "53300" || // too many connections
			code == "40001" || code == "40P01" // serialization failure, deadlock: retry
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &connectErr),
		errors.As(err, &netErr),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		pgconn.Timeout(err), pgconn.SafeToRetry(err):
		return true
	}
	return false
}
