package sandbox

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"sync"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/runtime"
)

// client is files.Ops in a worker: every call is one round trip to the
// server, which performs it on the conversation's Space (see opcall.go).
// Files to read arrive as descriptors opened through the conversation's
// root.
type client struct {
	c       *conn
	box     *mailbox   // where replies arrive in a worker; nil: read c
	mu      sync.Mutex // one call at a time on the socket
	id      string
	hostDir string
}

var (
	_ files.Ops              = (*client)(nil)
	_ runtime.DownloaderInto = (*client)(nil)
	_ runtime.ReadRoots      = readRoots{}
)

// readRoots is runtime.ReadRoots in a worker: the server opens the path
// inside its read roots, or refuses it.
type readRoots struct{ cl *client }

func (rr readRoots) Open(abs string) (files.Blob, files.Info, error) {
	return rr.cl.open(context.Background(), opReadRoot, abs)
}

// call sends the operation op with its arguments and waits for the
// answer. A context that has ended sends nothing; its deadline goes with
// the call.
func (cl *client) call(ctx context.Context, op string, args ...any) (*message, []*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	m := &message{Kind: kindCall, Op: op, Args: wireArgs(args...)}
	m.Deadline, _ = ctx.Deadline()
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if err := cl.c.send(m); err != nil {
		return nil, nil, err
	}
	// A context that ends while the server serves the call cancels it
	// there; the answer still comes, and is the one taken next. A cancel
	// already on its way is sent before the next call, so it can only
	// ever reach this one.
	sent := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(sent)
		cl.c.send(&message{Kind: kindCallCancel})
	})
	defer func() {
		if !stop() {
			<-sent
		}
	}()
	recv := cl.c.recv
	if cl.box != nil {
		recv = cl.box.recv
	}
	r, fds, err := recv()
	if err != nil {
		return nil, nil, err
	}
	if r.Kind != kindReply {
		closeAll(fds)
		return nil, nil, errors.New("sandbox: the server answered a call with something else")
	}
	if r.Err != nil {
		closeAll(fds)
		return r, nil, r.Err.decode()
	}
	return r, fds, nil
}

// do is call for operations that pass no descriptors back.
func (cl *client) do(ctx context.Context, op string, args ...any) (*message, error) {
	r, fds, err := cl.call(ctx, op, args...)
	closeAll(fds)
	return r, err
}

// one is do for a method with one result and an error.
func one[T any](cl *client, ctx context.Context, op string, args ...any) (T, error) {
	r, err := cl.do(ctx, op, args...)
	return result[T](r, 0), err
}

// two is do for a method with two results and an error.
func two[T, U any](cl *client, ctx context.Context, op string, args ...any) (T, U, error) {
	r, err := cl.do(ctx, op, args...)
	return result[T](r, 0), result[U](r, 1), err
}

func closeAll(fds []*os.File) {
	for _, f := range fds {
		f.Close()
	}
}

func (cl *client) ID() string { return cl.id }

func (cl *client) HostPath(name string) string { return cl.hostDir + "/" + name }

// The methods that cross as they are: each is its method's name and
// arguments (see opcall.go).

func (cl *client) Stat(ctx context.Context, name string) (files.Info, error) {
	return one[files.Info](cl, ctx, "Stat", name)
}

func (cl *client) ReadFile(ctx context.Context, name string, max int64) ([]byte, files.Info, error) {
	return two[[]byte, files.Info](cl, ctx, "ReadFile", name, max)
}

func (cl *client) ReadAt(ctx context.Context, name string, off, n int64) ([]byte, error) {
	return one[[]byte](cl, ctx, "ReadAt", name, off, n)
}

func (cl *client) ReadLines(ctx context.Context, name string, q files.LineQuery) (files.LineRange, error) {
	return one[files.LineRange](cl, ctx, "ReadLines", name, q)
}

func (cl *client) LineCount(ctx context.Context, name string) (int, error) {
	return one[int](cl, ctx, "LineCount", name)
}

func (cl *client) ReadTail(ctx context.Context, name string, n int, maxBytes int64) (string, int, bool, error) {
	r, err := cl.do(ctx, "ReadTail", name, n, maxBytes)
	return result[string](r, 0), result[int](r, 1), result[bool](r, 2), err
}

func (cl *client) ReadDir(ctx context.Context, dir string) ([]files.DirEntry, error) {
	return one[[]files.DirEntry](cl, ctx, "ReadDir", dir)
}

func (cl *client) List(ctx context.Context) ([]files.Info, error) {
	return one[[]files.Info](cl, ctx, "List")
}

// Search sends the pattern's source; the server compiles it again (RE2:
// linear time, its own nesting limit).
func (cl *client) Search(ctx context.Context, name string, re *regexp.Regexp) ([]files.Match, bool, error) {
	return two[[]files.Match, bool](cl, ctx, "Search", name, re)
}

func (cl *client) Resolve(ctx context.Context, idOrName string) (string, error) {
	return one[string](cl, ctx, "Resolve", idOrName)
}

func (cl *client) Record(ctx context.Context, idOrName string) (files.Record, error) {
	return one[files.Record](cl, ctx, "Record", idOrName)
}

func (cl *client) Versions(ctx context.Context, idOrName string) ([]files.Version, error) {
	return one[[]files.Version](cl, ctx, "Versions", idOrName)
}

func (cl *client) Find(ctx context.Context, q files.ListQuery) ([]files.Record, int, error) {
	return two[[]files.Record, int](cl, ctx, "Find", q)
}

func (cl *client) WriteAt(ctx context.Context, name string, off int64, data []byte, opts files.WriteOptions) (files.Info, error) {
	return one[files.Info](cl, ctx, "WriteAt", name, off, data, opts)
}

func (cl *client) ReplaceLines(ctx context.Context, name string, start, end int, text string, opts files.WriteOptions) (int, error) {
	return one[int](cl, ctx, "ReplaceLines", name, start, end, text, opts)
}

func (cl *client) EditText(ctx context.Context, name string, edits []files.TextEdit, dryRun bool, opts files.WriteOptions) (files.EditResult, error) {
	return one[files.EditResult](cl, ctx, "EditText", name, edits, dryRun, opts)
}

func (cl *client) Copy(ctx context.Context, src, dst string, opts files.WriteOptions) (files.Info, error) {
	return one[files.Info](cl, ctx, "Copy", src, dst, opts)
}

func (cl *client) Rename(ctx context.Context, from, to string) (files.Info, error) {
	return one[files.Info](cl, ctx, "Rename", from, to)
}

func (cl *client) RenameNew(ctx context.Context, from, to string) (files.Info, error) {
	return one[files.Info](cl, ctx, "RenameNew", from, to)
}

func (cl *client) Remove(ctx context.Context, name string) error {
	_, err := cl.do(ctx, "Remove", name)
	return err
}

func (cl *client) Restore(ctx context.Context, id string, n int, opts files.WriteOptions) (files.Info, error) {
	return one[files.Info](cl, ctx, "Restore", id, n, opts)
}

// The methods whose arguments or results cannot cross as they are.

// Open receives the file's descriptor, opened read-only by the server.
func (cl *client) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	return cl.open(ctx, "Open", name)
}

// open performs an operation answered with one descriptor.
func (cl *client) open(ctx context.Context, op, name string) (files.Blob, files.Info, error) {
	r, fds, err := cl.call(ctx, op, name)
	if err != nil {
		return nil, files.Info{}, err
	}
	if len(fds) != 1 {
		closeAll(fds)
		return nil, files.Info{}, errNoDescriptor
	}
	info := result[files.Info](r, 0)
	b, err := engine.FileBlob(fds[0], info.Name)
	return b, info, err
}

// Sizes takes every name and size in one answer.
func (cl *client) Sizes(ctx context.Context, prefix string, each func(name string, size int64)) error {
	list, err := one[[]files.Info](cl, ctx, "Sizes", prefix)
	for _, fi := range list {
		each(fi.Name, fi.Size)
	}
	return err
}

// Write streams r through a writer: a round trip per chunk.
func (cl *client) Write(ctx context.Context, name string, r io.Reader, opts files.WriteOptions) (files.Info, error) {
	w, err := cl.NewWriter(ctx, name, opts, false)
	if err != nil {
		return files.Info{}, err
	}
	defer w.Abort()
	if _, err := io.Copy(w, r); err != nil {
		return files.Info{}, err
	}
	return w.Commit()
}

// writeChunk is the most one message of a write carries; a larger write
// streams through a writer, a message per chunk.
const writeChunk = 8 << 20

func (cl *client) WriteBytes(ctx context.Context, name string, data []byte, opts files.WriteOptions) (files.Info, error) {
	if len(data) > writeChunk {
		return cl.Write(ctx, name, bytes.NewReader(data), opts)
	}
	return one[files.Info](cl, ctx, "WriteBytes", name, data, opts)
}

// DownloadInto has the server fetch url into the conversation: the
// worker has no network, and the bytes never pass through it.
func (cl *client) DownloadInto(ctx context.Context, url, name string, opts files.WriteOptions) (runtime.Downloaded, error) {
	info, mime, err := two[files.Info, string](cl, ctx, opDownload, url, name, opts)
	return runtime.Downloaded{Info: info, MIME: mime}, err
}
