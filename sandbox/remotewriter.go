package sandbox

import (
	"context"

	"convfiles/files"
)

// The operations on a writer the server keeps for a job (see NewWriter),
// and the calls that are not files.Ops methods.
const (
	opWriterWrite  = "writer.write"
	opWriterSeek   = "writer.seek"
	opWriterCommit = "writer.commit"
	opWriterAbort  = "writer.abort"
	opReadRoot     = "readroot"
	opDownload     = "download"
	opRunBulk      = "runbulk"
)

// NewWriter opens a writer in the server; each Write is a round trip.
func (cl *client) NewWriter(ctx context.Context, name string, opts files.WriteOptions, appendTo bool) (files.FileWriter, error) {
	r, err := cl.do(ctx, "NewWriter", name, opts, appendTo)
	if err != nil {
		return nil, err
	}
	return &remoteWriter{cl: cl, ctx: ctx, handle: result[int64](r, 0), name: result[string](r, 1), size: result[int64](r, 2)}, nil
}

// remoteWriter is an engine.Writer kept by the server.
type remoteWriter struct {
	cl     *client
	ctx    context.Context // the NewWriter call's
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
		size, err := one[int64](w.cl, w.ctx, opWriterWrite, w.handle, part)
		if err != nil {
			return done, err
		}
		w.size = size
		done += len(part)
	}
	return done, nil
}

func (w *remoteWriter) Seek(offset int64, whence int) (int64, error) {
	pos, size, err := two[int64, int64](w.cl, w.ctx, opWriterSeek, w.handle, offset, whence)
	if err != nil {
		return 0, err
	}
	w.size = size
	return pos, nil
}

func (w *remoteWriter) Commit() (files.Info, error) {
	w.done = true
	return one[files.Info](w.cl, context.WithoutCancel(w.ctx), opWriterCommit, w.handle)
}

func (w *remoteWriter) Abort() {
	if !w.done {
		w.done = true
		w.cl.do(context.WithoutCancel(w.ctx), opWriterAbort, w.handle)
	}
}
