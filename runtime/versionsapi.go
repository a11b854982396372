package runtime

import (
	"time"

	"github.com/dop251/goja"

	"convfiles/files"
)

// filesVersions is files.versions(id) → [{version, size, sha256, saved_on,
// kept_on, reason, name}], newest first: the earlier contents kept when the
// file was overwritten or deleted. A deleted file is found by its ID.
func (s *session) filesVersions(sp *files.Space, call goja.FunctionCall) goja.Value {
	rec, err := sp.Record(s.stringArg(call, 0, "files.versions(id)", "id"))
	if err != nil {
		s.throwFiles(err)
	}
	list, err := sp.Versions(rec.ID)
	if err != nil {
		s.throwFiles(err)
	}
	out := make([]any, len(list))
	for i, v := range list {
		o := s.vm.NewObject()
		o.Set("version", v.Version)
		o.Set("name", v.Name)
		o.Set("size", v.Size)
		o.Set("mime_type", v.MIME)
		o.Set("sha256", v.SHA256)
		o.Set("saved_on", v.Saved.UTC().Format(time.RFC3339Nano))
		o.Set("kept_on", v.Kept.UTC().Format(time.RFC3339Nano))
		o.Set("reason", v.Reason)
		out[i] = o
	}
	return s.vm.NewArray(out...)
}

// filesRestore is files.restore(id, version) → {id, name, size, version}:
// the kept version becomes the file's content again (a deleted file comes
// back), and the content it replaces is kept in turn.
func (s *session) filesRestore(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.restore(id, version)"
	rec, err := sp.Record(s.stringArg(call, 0, usage, "id"))
	if err != nil {
		s.throwFiles(err)
	}
	n := call.Argument(1).ToInteger()
	if n < 1 {
		s.throw("ValidationError", usage+": the version must be a positive number; files.versions(id) lists them")
	}
	opts := s.writeOpts()
	opts.Source = files.SourceDerived
	info, err := sp.Restore(s.ctx, rec.ID, int(n), opts)
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.touch(info.Name, opWrite)
	after, err := sp.Record(info.Name)
	if err != nil {
		s.throwFiles(err)
	}
	o := s.idName(info).(*goja.Object)
	o.Set("size", info.Size)
	o.Set("version", after.Version)
	return o
}
