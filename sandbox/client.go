package sandbox

import (
	"bytes"
	"context"
	"convfiles/engine"
	"errors"
	"io"
	"os"
	"regexp"
	"sync"

	"convfiles/files"
	"convfiles/runtime"
)

// client is files.Ops in a worker: every call is one round trip to the
// server, which performs it on the conversation's Space. Files to read
// arrive as descriptors opened through the conversation's root.
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
	return rr.cl.openOp(&message{Op: "readroot", Name: abs})
}

// call sends a file operation and waits for its answer.
func (cl *client) call(m *message) (*message, []*os.File, error) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	m.Kind = kindCall
	if err := cl.c.send(m); err != nil {
		return nil, nil, err
	}
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
func (cl *client) do(m *message) (*message, error) {
	r, fds, err := cl.call(m)
	closeAll(fds)
	if r == nil {
		r = &message{}
	}
	return r, err
}

func closeAll(fds []*os.File) {
	for _, f := range fds {
		f.Close()
	}
}

func (cl *client) ID() string { return cl.id }

func (cl *client) HostPath(name string) string { return cl.hostDir + "/" + name }

func (cl *client) Stat(ctx context.Context, name string) (files.Info, error) {
	r, err := cl.do(&message{Op: "stat", Name: name})
	return r.Info, err
}

// Open receives the file's descriptor, opened read-only by the server.
func (cl *client) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	return cl.openOp(&message{Op: "open", Name: name})
}

// openOp performs an operation answered with one descriptor.
func (cl *client) openOp(m *message) (files.Blob, files.Info, error) {
	r, fds, err := cl.call(m)
	if err != nil {
		return nil, files.Info{}, err
	}
	if len(fds) != 1 {
		closeAll(fds)
		return nil, files.Info{}, errors.New("sandbox: no file came with the answer to open")
	}
	b, err := engine.FileBlob(fds[0], r.Info.Name)
	return b, r.Info, err
}

func (cl *client) ReadFile(ctx context.Context, name string, max int64) ([]byte, files.Info, error) {
	r, err := cl.do(&message{Op: "readfile", Name: name, A: max})
	return r.Data, r.Info, err
}

func (cl *client) ReadAt(ctx context.Context, name string, off, n int64) ([]byte, error) {
	r, err := cl.do(&message{Op: "readat", Name: name, A: off, B: n})
	return r.Data, err
}

func (cl *client) ReadLines(ctx context.Context, name string, q files.LineQuery) (files.LineRange, error) {
	r, err := cl.do(&message{Op: "readlines", Name: name, A: int64(q.Start), B: int64(q.End), C: q.MaxBytes})
	return r.Lines, err
}

func (cl *client) LineCount(ctx context.Context, name string) (int, error) {
	r, err := cl.do(&message{Op: "linecount", Name: name})
	return int(r.A), err
}

func (cl *client) ReadDir(ctx context.Context, dir string) ([]files.DirEntry, error) {
	r, err := cl.do(&message{Op: "readdir", Name: dir})
	return r.Dir, err
}

func (cl *client) List(ctx context.Context) ([]files.Info, error) {
	r, err := cl.do(&message{Op: "list"})
	return r.Infos, err
}

// Search sends the pattern; the server compiles it again (RE2: linear
// time, its own nesting limit).
func (cl *client) Search(ctx context.Context, name string, re *regexp.Regexp) ([]files.Match, bool, error) {
	r, err := cl.do(&message{Op: "search", Name: name, Text: re.String()})
	return r.Matches, r.Bool, err
}

func (cl *client) Resolve(ctx context.Context, idOrName string) (string, error) {
	r, err := cl.do(&message{Op: "resolve", Name: idOrName})
	return r.Name, err
}

func (cl *client) Record(ctx context.Context, idOrName string) (files.Record, error) {
	r, err := cl.do(&message{Op: "record", Name: idOrName})
	return r.Record, err
}

func (cl *client) Versions(ctx context.Context, idOrName string) ([]files.Version, error) {
	r, err := cl.do(&message{Op: "versions", Name: idOrName})
	return r.Versions, err
}

func (cl *client) Find(ctx context.Context, q files.ListQuery) ([]files.Record, int, error) {
	r, err := cl.do(&message{Op: "find", Query: &q})
	return r.Records, int(r.A), err
}

// Sizes takes every name and size in one answer.
func (cl *client) Sizes(ctx context.Context, prefix string, each func(name string, size int64)) error {
	r, err := cl.do(&message{Op: "sizes", Name: prefix})
	for _, fi := range r.Infos {
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
	r, err := cl.do(&message{Op: "writebytes", Name: name, Data: data, Opts: toWire(opts)})
	return r.Info, err
}

func (cl *client) WriteAt(_ context.Context, name string, off int64, data []byte, opts files.WriteOptions) (files.Info, error) {
	r, err := cl.do(&message{Op: "writeat", Name: name, A: off, Data: data, Opts: toWire(opts)})
	return r.Info, err
}

func (cl *client) ReplaceLines(_ context.Context, name string, start, end int, text string, opts files.WriteOptions) (int, error) {
	r, err := cl.do(&message{Op: "replacelines", Name: name, A: int64(start), B: int64(end), Text: text, Opts: toWire(opts)})
	return int(r.A), err
}

func (cl *client) EditText(_ context.Context, name string, edits []files.TextEdit, dryRun bool, opts files.WriteOptions) (files.EditResult, error) {
	r, err := cl.do(&message{Op: "edittext", Name: name, Edits: edits, Bool: dryRun, Opts: toWire(opts)})
	if err != nil || r.Edited == nil {
		return files.EditResult{}, err
	}
	return *r.Edited, nil
}

func (cl *client) Copy(_ context.Context, src, dst string, opts files.WriteOptions) (files.Info, error) {
	r, err := cl.do(&message{Op: "copy", Name: src, Name2: dst, Opts: toWire(opts)})
	return r.Info, err
}

func (cl *client) Rename(ctx context.Context, from, to string) (files.Info, error) {
	r, err := cl.do(&message{Op: "rename", Name: from, Name2: to})
	return r.Info, err
}

func (cl *client) RenameNew(ctx context.Context, from, to string) (files.Info, error) {
	r, err := cl.do(&message{Op: "renamenew", Name: from, Name2: to})
	return r.Info, err
}

func (cl *client) Remove(ctx context.Context, name string) error {
	_, err := cl.do(&message{Op: "remove", Name: name})
	return err
}

func (cl *client) Restore(_ context.Context, id string, n int, opts files.WriteOptions) (files.Info, error) {
	r, err := cl.do(&message{Op: "restore", Name: id, A: int64(n), Opts: toWire(opts)})
	return r.Info, err
}

// DownloadInto has the server fetch url into the conversation: the
// worker has no network, and the bytes never pass through it.
func (cl *client) DownloadInto(_ context.Context, url, name string, opts files.WriteOptions) (runtime.Downloaded, error) {
	r, err := cl.do(&message{Op: "download", Text: url, Name: name, Opts: toWire(opts)})
	return runtime.Downloaded{Info: r.Info, MIME: r.Name2}, err
}

// NewWriter opens a writer in the server; each Write is a round trip.
func (cl *client) NewWriter(_ context.Context, name string, opts files.WriteOptions, appendTo bool) (files.FileWriter, error) {
	r, err := cl.do(&message{Op: "writer.open", Name: name, Opts: toWire(opts), Bool: appendTo})
	if err != nil {
		return nil, err
	}
	return &remoteWriter{cl: cl, handle: r.A, name: r.Name, size: r.B}, nil
}

// remoteWriter is a engine.Writer kept by the server.
type remoteWriter struct {
	cl     *client
	handle int64
	name   string
	size   int64
	done   bool
}

func (w *remoteWriter) Name() string { return w.name }
func (w *remoteWriter) Size() int64  { return w.size }

// Write sends p in messages of at most writeChunk bytes.
func (w *remoteWriter) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		part := p[done:min(len(p), done+writeChunk)]
		r, err := w.cl.do(&message{Op: "writer.write", A: w.handle, Data: part})
		if err != nil {
			return done, err
		}
		w.size = r.B
		done += len(part)
	}
	return done, nil
}

func (w *remoteWriter) Seek(offset int64, whence int) (int64, error) {
	r, err := w.cl.do(&message{Op: "writer.seek", A: w.handle, B: offset, Info: files.Info{Size: int64(whence)}})
	if err != nil {
		return 0, err
	}
	w.size = r.B
	return r.A, nil
}

func (w *remoteWriter) Commit() (files.Info, error) {
	r, err := w.cl.do(&message{Op: "writer.commit", A: w.handle})
	w.done = true
	return r.Info, err
}

func (w *remoteWriter) Abort() {
	if !w.done {
		w.done = true
		w.cl.do(&message{Op: "writer.abort", A: w.handle})
	}
}
