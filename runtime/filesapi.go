package runtime

import (
	"encoding/base64"
	"regexp"
	"strings"

	"github.com/dop251/goja"

	"convfiles/files"
)

// installFilesAPI binds metaclaw's files.* (seed 004, tiers 1 and 2 and raw
// bytes, plus versions). Files are addressed by ID or by name; a folder
// without an index (convfiles run --dir) has no IDs, and there a file's id
// is its name.
func (s *session) installFilesAPI() {
	s.lazyGlobal("files", func(o *goja.Object) {
		fn := func(name string, f func(sp files.Ops, call goja.FunctionCall) goja.Value) {
			o.Set(name, func(call goja.FunctionCall) goja.Value { return f(s.needSpace("files."+name), call) })
		}
		fn("list", s.filesList)
		fn("info", s.filesInfo)
		fn("create", s.filesCreate)
		fn("delete", func(sp files.Ops, call goja.FunctionCall) goja.Value {
			name := s.fileArg(sp, call, 0, "files.delete(id)")
			return s.deleteFile(goja.FunctionCall{Arguments: []goja.Value{s.vm.ToValue(name)}})
		})
		fn("copy", s.filesCopy)
		fn("rename", s.filesRename)
		fn("readText", s.filesReadText)
		fn("writeText", s.filesWriteText)
		fn("replaceLines", s.filesReplaceLines)
		fn("insertLines", s.filesInsertLines)
		fn("searchText", s.filesSearchText)
		fn("lineCount", s.filesLineCount)
		fn("readBytes", s.filesReadBytes)
		fn("writeBytes", s.filesWriteBytes)
		fn("appendBytes", s.filesAppendBytes)
		fn("download", s.filesDownload)
		fn("versions", s.filesVersions)
		fn("restore", s.filesRestore)
		s.installFormatAPIs(o)
	})
}

// fileArg resolves argument i, a file's ID or name, to its name.
func (s *session) fileArg(sp files.Ops, call goja.FunctionCall, i int, usage string) string {
	name, err := sp.Resolve(s.stringArg(call, i, usage, "id"))
	if err != nil {
		s.throwFiles(err)
	}
	return name
}

// writeOpts are the options of a script's writes: its byte budget.
func (s *session) writeOpts() files.WriteOptions {
	return files.WriteOptions{Budget: s.budget, Session: s.sessionID}
}

func (s *session) filesCreate(sp files.Ops, call goja.FunctionCall) goja.Value {
	name := s.stringArg(call, 0, "files.create(name, mime?)", "name")
	opts := s.writeOpts()
	opts.NoReplace = true
	info, err := sp.WriteBytes(s.ctx, name, nil, opts)
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(info.Name, OpWrite)
	return s.idName(info)
}

func (s *session) idName(info files.Info) goja.Value {
	o := s.vm.NewObject()
	o.Set("id", idOf(files.Record{ID: info.ID, Name: info.Name}))
	o.Set("name", info.Name)
	return o
}

func (s *session) filesCopy(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.copy(id, newName)"
	opts := s.writeOpts()
	opts.Source = files.SourceDerived
	info, err := sp.Copy(s.ctx, s.fileArg(sp, call, 0, usage), s.stringArg(call, 1, usage, "newName"), opts)
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(info.Name, OpWrite)
	return s.idName(info)
}

func (s *session) filesRename(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.rename(id, newName)"
	from := s.fileArg(sp, call, 0, usage)
	info, err := sp.Rename(from, s.stringArg(call, 1, usage, "newName"))
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(from, OpRemove)
	s.touched.Touch(info.Name, OpWrite)
	return s.idName(info)
}

// filesReadText is files.readText(id, {startLine, endLine}) → {content,
// totalLines}, reading only around the lines asked for.
func (s *session) filesReadText(sp files.Ops, call goja.FunctionCall) goja.Value {
	name := s.fileArg(sp, call, 0, "files.readText(id, options?)")
	start, end := 1, 0
	if o, ok := call.Argument(1).(*goja.Object); ok {
		if v := o.Get("startLine"); v != nil && !goja.IsUndefined(v) {
			start = int(v.ToInteger())
		}
		if v := o.Get("endLine"); v != nil && !goja.IsUndefined(v) {
			end = int(v.ToInteger())
		}
	}
	r, err := sp.ReadLines(name, files.LineQuery{Start: start, End: end})
	if err != nil {
		s.throwFiles(err)
	}
	out := s.vm.NewObject()
	out.Set("content", r.Content)
	out.Set("totalLines", r.TotalLines)
	if r.Truncated { // at most files.MaxReadAt: say where to go on
		out.Set("truncated", true)
		if r.NextLine > 0 {
			out.Set("nextLine", r.NextLine)
		} else {
			out.Set("nextOffset", r.NextOffset)
		}
	}
	return out
}

func (s *session) filesWriteText(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.writeText(id, content)"
	name := s.fileArg(sp, call, 0, usage)
	info, err := sp.WriteBytes(s.ctx, name, stringBytes(s.stringArg(call, 1, usage, "content")), s.writeOpts())
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(info.Name, OpWrite)
	return s.okSize("size", info.Size)
}

func (s *session) okSize(key string, n int64) goja.Value {
	o := s.vm.NewObject()
	o.Set("ok", true)
	o.Set(key, n)
	return o
}

func (s *session) editLines(sp files.Ops, name string, start, end int, text string) goja.Value {
	total, err := sp.ReplaceLines(s.ctx, name, start, end, text, s.writeOpts())
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(name, OpWrite)
	return s.okSize("totalLines", int64(total))
}

func (s *session) filesReplaceLines(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.replaceLines(id, startLine, endLine, content)"
	name := s.fileArg(sp, call, 0, usage)
	return s.editLines(sp, name, int(call.Argument(1).ToInteger()), int(call.Argument(2).ToInteger()), s.stringArg(call, 3, usage, "content"))
}

func (s *session) filesInsertLines(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.insertLines(id, afterLine, content)"
	name := s.fileArg(sp, call, 0, usage)
	after := int(call.Argument(1).ToInteger())
	return s.editLines(sp, name, after+1, after, s.stringArg(call, 2, usage, "content"))
}

// filesSearchText is files.searchText(id, pattern) → {matches: [{line,
// content}], truncated}. The pattern is RE2: a string, or a RegExp whose
// source and i/m/s flags are used.
func (s *session) filesSearchText(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.searchText(id, pattern)"
	name := s.fileArg(sp, call, 0, usage)
	src, flags := "", ""
	if o, ok := call.Argument(1).(*goja.Object); ok && o.ClassName() == "RegExp" {
		src, flags = o.Get("source").String(), o.Get("flags").String()
	} else {
		src = s.stringArg(call, 1, usage, "pattern")
	}
	var mods string
	for _, f := range "ims" {
		if strings.ContainsRune(flags, f) {
			mods += string(f)
		}
	}
	if mods != "" {
		src = "(?" + mods + ")" + src
	}
	re, err := regexp.Compile(src)
	if err != nil {
		s.throw("ValidationError", usage+": the pattern is not valid RE2 (no lookaround or backreferences): "+err.Error())
	}
	m, truncated, err := sp.Search(name, re)
	if err != nil {
		s.throwFiles(err)
	}
	out := s.vm.NewObject()
	list := make([]any, len(m))
	for i, x := range m {
		o := s.vm.NewObject()
		o.Set("line", x.Line)
		o.Set("content", x.Content)
		list[i] = o
	}
	out.Set("matches", s.vm.NewArray(list...))
	out.Set("truncated", truncated)
	return out
}

func (s *session) filesLineCount(sp files.Ops, call goja.FunctionCall) goja.Value {
	n, err := sp.LineCount(s.fileArg(sp, call, 0, "files.lineCount(id)"))
	if err != nil {
		s.throwFiles(err)
	}
	return s.vm.ToValue(n)
}

func (s *session) filesReadBytes(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.readBytes(id, offset, length)"
	b, err := sp.ReadAt(s.fileArg(sp, call, 0, usage), call.Argument(1).ToInteger(), call.Argument(2).ToInteger())
	if err != nil {
		s.throwFiles(err)
	}
	return s.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

func (s *session) decodeB64(usage string, v goja.Value) []byte {
	str, ok := exportString(v)
	b, err := base64.StdEncoding.DecodeString(str)
	if !ok || err != nil {
		s.throw("ValidationError", usage+": the data must be a base64 string")
	}
	return b
}

func (s *session) filesWriteBytes(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.writeBytes(id, offset, base64data)"
	name := s.fileArg(sp, call, 0, usage)
	info, err := sp.WriteAt(s.ctx, name, call.Argument(1).ToInteger(), s.decodeB64(usage, call.Argument(2)), s.writeOpts())
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(info.Name, OpWrite)
	return s.okSize("size", info.Size)
}

func (s *session) filesAppendBytes(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.appendBytes(id, base64data)"
	name := s.fileArg(sp, call, 0, usage)
	data := s.decodeB64(usage, call.Argument(1))
	w, err := sp.NewWriter(s.ctx, name, s.writeOpts(), true)
	if err != nil {
		s.throwFiles(err)
	}
	defer w.Abort()
	if _, err := w.Write(data); err != nil {
		s.throwFiles(err)
	}
	info, err := w.Commit()
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.Touch(info.Name, OpAppend)
	return s.okSize("size", info.Size)
}
