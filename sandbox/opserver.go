package sandbox

import (
	"context"
	"os"

	"convfiles/files"
	"convfiles/internal/links"
	"convfiles/runtime"
)

// maxOpenWriters bounds the writers one job may hold open in the server.
const maxOpenWriters = 256

// opServer performs one job's file operations on the conversation's
// Space, in the server. Nothing a worker sends reaches the disk any other
// way: names are validated and opened by the Space, as for every door.
type opServer struct {
	ctx        context.Context
	sp         files.Ops // nil: the job has no files
	budget     *files.Budget
	roots      runtime.ReadRoots
	downloader runtime.Downloader
	methods    methods // sp's, looked up once
	writers    map[int64]files.FileWriter
	next       int64
	// touched records what the job wrote, appended to or removed, so a
	// run whose worker died can still say what it changed.
	touched runtime.TouchLog
}

// touchedFiles is the final state of what the job changed, as a run's
// report gives it.
func (o *opServer) touchedFiles(l links.Links) []runtime.Touched {
	if o.sp == nil {
		return []runtime.Touched{}
	}
	return o.touched.Final(o.ctx, o.sp, func(name string) string { return l.URL(o.sp.ID(), name) })
}

func (o *opServer) noSpace() error {
	return files.E("file", files.KindForbidden, "", "this run has no files", nil)
}

// handle performs m under the job's context and returns its answer, with
// the files to pass.
func (o *opServer) handle(m *message) (*message, []*os.File) { return o.handleIn(o.ctx, m) }

// handleIn performs m under ctx (the job's, or a call's below it that the
// worker may cancel) and returns its answer, with the files to pass.
func (o *opServer) handleIn(ctx context.Context, m *message) (*message, []*os.File) {
	r := &message{Kind: kindReply}
	if o.sp == nil && m.Op != opReadRoot {
		r.Err = encodeError(o.noSpace())
		return r, nil
	}
	ctx, cancel := callContext(ctx, m.Deadline)
	defer cancel()
	ctx = files.WithTouches(ctx, o.touched.Touch)
	var err error
	var pass []*os.File
	switch m.Op {
	case "Open", opReadRoot:
		pass, err = o.open(ctx, m, r)
	case "Sizes":
		var list []files.Info
		prefix, _ := arg[string](m, 0)
		err = o.sp.Sizes(ctx, prefix, func(name string, size int64) { list = append(list, files.Info{Name: name, Size: size}) })
		r.Results = []any{list}
	case "NewWriter":
		err = o.newWriter(m, r)
	case opWriterWrite, opWriterSeek, opWriterCommit, opWriterAbort:
		err = o.writerOp(m, r)
	case opDownload:
		err = o.download(ctx, m, r)
	case opRunBulk:
		err = o.runBulk(ctx, m, r)
	case "Write":
		err = files.E("write", files.KindInvalid, "", "a worker writes through NewWriter", nil)
	default:
		if o.methods.sp == nil {
			o.methods.sp = o.sp
		}
		r.Results, err = o.methods.invoke(ctx, m, o.budget)
	}
	r.Err = encodeError(err)
	return r, pass
}

// arg is the i-th argument of a call, as T.
func arg[T any](m *message, i int) (T, bool) {
	var zero T
	if i >= len(m.Args) {
		return zero, false
	}
	v, ok := m.Args[i].(T)
	return v, ok
}

// open answers Open (a conversation's file) and readroot (a path inside
// the server's read roots) with the file's descriptor.
func (o *opServer) open(ctx context.Context, m *message, r *message) ([]*os.File, error) {
	name, _ := arg[string](m, 0)
	var f files.Blob
	var info files.Info
	var err error
	switch {
	case m.Op == "Open":
		f, info, err = o.sp.Open(ctx, name)
	case o.roots != nil:
		f, info, err = o.roots.Open(name)
	default:
		err = files.E("read", files.KindForbidden, name, "this job reads no absolute paths", nil)
	}
	if err != nil {
		return nil, err
	}
	r.Results = []any{info}
	fd, err := descriptorOf(f)
	if err != nil {
		return nil, err
	}
	return []*os.File{fd}, nil
}

func (o *opServer) download(ctx context.Context, m *message, r *message) error {
	if o.downloader == nil {
		return files.E("download", files.KindForbidden, "", "downloads are not enabled on this server", nil)
	}
	url, _ := arg[string](m, 0)
	name, _ := arg[string](m, 1)
	w, _ := arg[*wireOpts](m, 2)
	d, err := runtime.Download(ctx, o.downloader, o.sp, url, name, w.options(o.budget))
	r.Results = []any{d.Info, d.MIME}
	return err
}

// newWriter opens a writer the job then writes through by its handle. It
// lives as long as the job, so it takes the job's context.
func (o *opServer) newWriter(m *message, r *message) error {
	name, _ := arg[string](m, 0)
	w, _ := arg[*wireOpts](m, 1)
	appendTo, _ := arg[bool](m, 2)
	if len(o.writers) >= maxOpenWriters {
		return files.E("open", files.KindTooLarge, name, "too many files open for writing in one run", nil)
	}
	fw, err := o.sp.NewWriter(files.WithTouches(o.ctx, o.touched.Touch), name, w.options(o.budget), appendTo)
	if err != nil {
		return err
	}
	if o.writers == nil {
		o.writers = map[int64]files.FileWriter{}
	}
	o.next++
	o.writers[o.next] = fw
	r.Results = []any{o.next, fw.Name(), fw.Size()}
	return nil
}

// writerOp performs the operations on writers the job opened.
func (o *opServer) writerOp(m *message, r *message) error {
	handle, _ := arg[int64](m, 0)
	w, ok := o.writers[handle]
	if !ok {
		return files.E(m.Op, files.KindInvalid, "", "no such writer", nil)
	}
	switch m.Op {
	case opWriterWrite:
		data, _ := arg[[]byte](m, 1)
		_, err := w.Write(data)
		r.Results = []any{w.Size()}
		return err
	case opWriterSeek:
		off, _ := arg[int64](m, 1)
		whence, _ := arg[int](m, 2)
		pos, err := w.Seek(off, whence)
		r.Results = []any{pos, w.Size()}
		return err
	case opWriterCommit:
		info, err := w.Commit()
		delete(o.writers, handle)
		r.Results = []any{info}
		return err
	default:
		w.Abort()
		delete(o.writers, handle)
		return nil
	}
}

// close throws away what the job left uncommitted.
func (o *opServer) close() {
	for id, w := range o.writers {
		w.Abort()
		delete(o.writers, id)
	}
}
