package runtime

import (
	"time"

	"github.com/dop251/goja"

	"convfiles/content"
	"convfiles/files"
)

// fileRecord is seed 004's file object: {id, name, size, mime_type,
// modified_on} and the file's link.
func (s *session) fileRecord(rec files.Record) *goja.Object {
	o := s.vm.NewObject()
	o.Set("id", idOf(rec))
	o.Set("name", rec.Name)
	o.Set("size", rec.Size)
	o.Set("mime_type", content.RecordedMIME(rec.Name, rec.MIME))
	o.Set("modified_on", rec.Modified.UTC().Format(time.RFC3339Nano))
	o.Set("url", s.link(rec.Name))
	return o
}

// idOf is a record's ID, or its name where there is no index.
func idOf(rec files.Record) string {
	if rec.ID == "" {
		return rec.Name
	}
	return rec.ID
}

func (s *session) filesList(sp files.Ops, call goja.FunctionCall) goja.Value {
	pattern := ""
	if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
		pattern = s.stringArg(call, 0, "files.list(pattern?)", "pattern")
		if files.ValidateGlob(pattern) != nil {
			s.throw("ValidationError", "files.list(pattern?): the pattern "+pattern+` is malformed; use *, ? and [a-z] as in "*.csv"`)
		}
	}
	list, _, err := sp.Find(files.ListQuery{Pattern: pattern})
	if err != nil {
		s.throwFiles(err)
	}
	out := make([]any, len(list))
	for i, rec := range list {
		out[i] = s.fileRecord(rec)
	}
	return s.vm.NewArray(out...)
}

// filesInfo is files.info(id): the file object plus its type, origin,
// digest and version.
func (s *session) filesInfo(sp files.Ops, call goja.FunctionCall) goja.Value {
	name := s.fileArg(sp, call, 0, "files.info(id)")
	rec, err := sp.Record(name)
	if err != nil {
		s.throwFiles(err)
	}
	o := s.fileRecord(rec)
	f, info, err := sp.Open(name)
	if err != nil {
		s.throwFiles(err)
	}
	kind, mt := content.DetectReader(info.Name, f, info.Size)
	f.Close()
	if rec.MIME == "" {
		o.Set("mime_type", mt)
	}
	o.Set("type", string(kind))
	o.Set("modified", info.ModTime.UTC().Format(time.RFC3339))
	o.Set("created_on", rec.Created.UTC().Format(time.RFC3339Nano))
	o.Set("source", string(rec.Source))
	o.Set("source_session_id", rec.Session)
	if rec.DerivedFrom != "" {
		o.Set("derived_from", rec.DerivedFrom)
	}
	o.Set("sha256", rec.SHA256)
	o.Set("version", rec.Version)
	return o
}

// filesVersions is files.versions(id) → [{version, size, sha256, saved_on,
// kept_on, reason, name}], newest first: the earlier contents kept when the
// file was overwritten or deleted. A deleted file is found by its ID.
func (s *session) filesVersions(sp files.Ops, call goja.FunctionCall) goja.Value {
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
func (s *session) filesRestore(sp files.Ops, call goja.FunctionCall) goja.Value {
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
	s.touched.Touch(info.Name, OpWrite)
	after, err := sp.Record(info.Name)
	if err != nil {
		s.throwFiles(err)
	}
	o := s.idName(info).(*goja.Object)
	o.Set("size", info.Size)
	o.Set("version", after.Version)
	return o
}
