package sandbox

import (
	"context"
	"os"
	"regexp"

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

// handle performs m and returns its answer, with the files to pass.
func (o *opServer) handle(m *message) (*message, []*os.File) {
	r := &message{Kind: kindReply}
	var err error
	var pass []*os.File
	if o.sp == nil && m.Op != "readroot" {
		r.Err = encodeError(o.noSpace())
		return r, nil
	}
	sp := o.sp
	opts := m.Opts.options(o.budget)
	switch m.Op {
	case "stat":
		r.Info, err = sp.Stat(o.ctx, m.Name)
	case "open", "readroot":
		var f files.Blob
		switch {
		case m.Op == "open":
			f, r.Info, err = sp.Open(o.ctx, m.Name)
		case o.roots != nil:
			f, r.Info, err = o.roots.Open(m.Name)
		default:
			err = files.E("read", files.KindForbidden, m.Name, "this job reads no absolute paths", nil)
		}
		if err == nil {
			var fd *os.File
			if fd, err = descriptorOf(f); err == nil {
				pass = []*os.File{fd}
			}
		}
	case "readfile":
		r.Data, r.Info, err = sp.ReadFile(o.ctx, m.Name, m.A)
	case "readat":
		r.Data, err = sp.ReadAt(o.ctx, m.Name, m.A, m.B)
	case "readlines":
		r.Lines, err = sp.ReadLines(o.ctx, m.Name, files.LineQuery{Start: int(m.A), End: int(m.B), MaxBytes: m.C})
	case "linecount":
		var n int
		n, err = sp.LineCount(o.ctx, m.Name)
		r.A = int64(n)
	case "readdir":
		r.Dir, err = sp.ReadDir(o.ctx, m.Name)
	case "list":
		r.Infos, err = sp.List(o.ctx)
	case "search":
		var re *regexp.Regexp
		if re, err = regexp.Compile(m.Text); err == nil {
			r.Matches, r.Bool, err = sp.Search(o.ctx, m.Name, re)
		}
	case "resolve":
		r.Name, err = sp.Resolve(o.ctx, m.Name)
	case "record":
		r.Record, err = sp.Record(o.ctx, m.Name)
	case "versions":
		r.Versions, err = sp.Versions(o.ctx, m.Name)
	case "find":
		var total int
		if m.Query != nil {
			r.Records, total, err = sp.Find(o.ctx, *m.Query)
		}
		r.A = int64(total)
	case "sizes":
		err = sp.Sizes(o.ctx, m.Name, func(name string, size int64) { r.Infos = append(r.Infos, files.Info{Name: name, Size: size}) })
	case "writebytes":
		r.Info, err = sp.WriteBytes(o.ctx, m.Name, m.Data, opts)
	case "writeat":
		r.Info, err = sp.WriteAt(o.ctx, m.Name, m.A, m.Data, opts)
	case "replacelines":
		var n int
		n, err = sp.ReplaceLines(o.ctx, m.Name, int(m.A), int(m.B), m.Text, opts)
		r.A = int64(n)
	case "edittext":
		var res files.EditResult
		res, err = sp.EditText(o.ctx, m.Name, m.Edits, m.Bool, opts)
		r.Edited, r.Info = &res, res.Info
	case "copy":
		r.Info, err = sp.Copy(o.ctx, m.Name, m.Name2, opts)
	case "rename":
		r.Info, err = sp.Rename(o.ctx, m.Name, m.Name2)
	case "renamenew":
		r.Info, err = sp.RenameNew(o.ctx, m.Name, m.Name2)
	case "remove":
		err = sp.Remove(o.ctx, m.Name)
	case "restore":
		r.Info, err = sp.Restore(o.ctx, m.Name, int(m.A), opts)
	case "download":
		err = o.download(m, r, opts)
	default:
		err = o.writerOp(m, r, opts)
	}
	if err == nil {
		switch m.Op {
		case "writebytes", "replacelines", "restore", "download", "copy", "writer.commit":
			o.touched.Touch(r.Info.Name, runtime.OpWrite)
		case "edittext":
			if !m.Bool {
				o.touched.Touch(r.Info.Name, runtime.OpWrite)
			}
		case "writeat":
			o.touched.Touch(r.Info.Name, runtime.OpAppend)
		case "remove":
			o.touched.Touch(m.Name, runtime.OpRemove)
		case "rename", "renamenew":
			o.touched.Touch(m.Name, runtime.OpRemove)
			o.touched.Touch(r.Info.Name, runtime.OpWrite)
		}
	}
	r.Err = encodeError(err)
	return r, pass
}

func (o *opServer) download(m *message, r *message, opts files.WriteOptions) error {
	if o.downloader == nil {
		return files.E("download", files.KindForbidden, "", "downloads are not enabled on this server", nil)
	}
	d, err := runtime.Download(o.ctx, o.downloader, o.sp, m.Text, m.Name, opts)
	r.Info, r.Name2 = d.Info, d.MIME
	return err
}

// writerOp performs the operations on writers the job opened.
func (o *opServer) writerOp(m *message, r *message, opts files.WriteOptions) error {
	if m.Op == "writer.open" {
		if len(o.writers) >= maxOpenWriters {
			return files.E("open", files.KindTooLarge, m.Name, "too many files open for writing in one run", nil)
		}
		w, err := o.sp.NewWriter(o.ctx, m.Name, opts, m.Bool)
		if err != nil {
			return err
		}
		if o.writers == nil {
			o.writers = map[int64]files.FileWriter{}
		}
		o.next++
		o.writers[o.next] = w
		r.A, r.Name, r.B = o.next, w.Name(), w.Size()
		return nil
	}
	w, ok := o.writers[m.A]
	if !ok {
		return files.E(m.Op, files.KindInvalid, "", "no such writer", nil)
	}
	var err error
	switch m.Op {
	case "writer.write":
		_, err = w.Write(m.Data)
	case "writer.seek":
		r.A, err = w.Seek(m.B, int(m.Info.Size))
	case "writer.commit":
		r.Info, err = w.Commit()
		delete(o.writers, m.A)
	case "writer.abort":
		w.Abort()
		delete(o.writers, m.A)
	default:
		return files.E(m.Op, files.KindInvalid, "", "unknown operation", nil)
	}
	r.B = w.Size()
	return err
}

// close throws away what the job left uncommitted.
func (o *opServer) close() {
	for id, w := range o.writers {
		w.Abort()
		delete(o.writers, id)
	}
}
