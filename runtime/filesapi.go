package runtime

import (
	"encoding/base64"
	"regexp"
	"strings"
	"time"

	"github.com/dop251/goja"

	"convfiles/content"
	"convfiles/files"
)

// installFilesAPI binds metaclaw's files.* (seed 004, tiers 1 and 2 and raw
// bytes). Files are addressed by name; a file's id is its name until the
// metadata index gives files IDs of their own, and names stay valid then.
func (s *session) installFilesAPI() {
	s.lazyGlobal("files", func(o *goja.Object) {
		fn := func(name string, f func(sp *files.Space, call goja.FunctionCall) goja.Value) {
			o.Set(name, func(call goja.FunctionCall) goja.Value { return f(s.needSpace("files."+name), call) })
		}
		fn("list", s.filesList)
		fn("info", s.filesInfo)
		fn("create", s.filesCreate)
		fn("delete", func(sp *files.Space, call goja.FunctionCall) goja.Value {
			return s.deleteFile(goja.FunctionCall{Arguments: []goja.Value{s.vm.ToValue(s.stringArg(call, 0, "files.delete(id)", "id"))}})
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
	})
}

func (s *session) fileRecord(info files.Info) *goja.Object {
	o := s.vm.NewObject()
	o.Set("id", info.Name)
	o.Set("name", info.Name)
	o.Set("size", info.Size)
	o.Set("mime_type", content.MIMEByExtension(info.Name))
	o.Set("modified_on", info.ModTime.UTC().Format(time.RFC3339Nano))
	o.Set("url", s.link(info.Name))
	return o
}

func (s *session) filesList(sp *files.Space, call goja.FunctionCall) goja.Value {
	list := s.listed(sp, call, "files.list(pattern?)")
	out := make([]any, len(list))
	for i, fi := range list {
		out[i] = s.fileRecord(fi)
	}
	return s.vm.NewArray(out...)
}

func (s *session) filesInfo(sp *files.Space, call goja.FunctionCall) goja.Value {
	o := s.fileInfo(call).(*goja.Object)
	o.Set("id", o.Get("name"))
	o.Set("modified_on", o.Get("modified"))
	return o
}

func (s *session) filesCreate(sp *files.Space, call goja.FunctionCall) goja.Value {
	name := s.stringArg(call, 0, "files.create(name, mime?)", "name")
	info, err := sp.WriteBytes(s.ctx, name, nil, files.WriteOptions{Budget: s.budget, NoReplace: true})
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.touch(info.Name, opWrite)
	return s.idName(info.Name)
}

func (s *session) idName(name string) goja.Value {
	o := s.vm.NewObject()
	o.Set("id", name)
	o.Set("name", name)
	return o
}

func (s *session) filesCopy(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.copy(id, newName)"
	info, err := sp.Copy(s.ctx, s.stringArg(call, 0, usage, "id"), s.stringArg(call, 1, usage, "newName"), files.WriteOptions{Budget: s.budget})
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.touch(info.Name, opWrite)
	return s.idName(info.Name)
}

func (s *session) filesRename(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.rename(id, newName)"
	from := s.stringArg(call, 0, usage, "id")
	info, err := sp.Rename(from, s.stringArg(call, 1, usage, "newName"))
	if err != nil {
		s.throwFiles(err)
	}
	if clean, err := files.ValidateName(from); err == nil {
		s.touched.touch(clean, opRemove)
	}
	s.touched.touch(info.Name, opWrite)
	return s.idName(info.Name)
}

// filesReadText is files.readText(id, {startLine, endLine}) → {content,
// totalLines}, reading only around the lines asked for.
func (s *session) filesReadText(sp *files.Space, call goja.FunctionCall) goja.Value {
	name := s.stringArg(call, 0, "files.readText(id, options?)", "id")
	start, end := 1, 0
	if o, ok := call.Argument(1).(*goja.Object); ok {
		if v := o.Get("startLine"); v != nil && !goja.IsUndefined(v) {
			start = int(v.ToInteger())
		}
		if v := o.Get("endLine"); v != nil && !goja.IsUndefined(v) {
			end = int(v.ToInteger())
		}
	}
	r, err := sp.ReadLines(name, start, end)
	if err != nil {
		s.throwFiles(err)
	}
	out := s.vm.NewObject()
	out.Set("content", r.Content)
	out.Set("totalLines", r.TotalLines)
	return out
}

func (s *session) filesWriteText(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.writeText(id, content)"
	name := s.stringArg(call, 0, usage, "id")
	info, err := sp.WriteBytes(s.ctx, name, stringBytes(s.stringArg(call, 1, usage, "content")), files.WriteOptions{Budget: s.budget})
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.touch(info.Name, opWrite)
	return s.okSize("size", info.Size)
}

func (s *session) okSize(key string, n int64) goja.Value {
	o := s.vm.NewObject()
	o.Set("ok", true)
	o.Set(key, n)
	return o
}

func (s *session) editLines(sp *files.Space, name string, start, end int, text string) goja.Value {
	total, err := sp.ReplaceLines(s.ctx, name, start, end, text, files.WriteOptions{Budget: s.budget})
	if err != nil {
		s.throwFiles(err)
	}
	if clean, err := files.ValidateName(name); err == nil {
		s.touched.touch(clean, opWrite)
	}
	return s.okSize("totalLines", int64(total))
}

func (s *session) filesReplaceLines(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.replaceLines(id, startLine, endLine, content)"
	name := s.stringArg(call, 0, usage, "id")
	return s.editLines(sp, name, int(call.Argument(1).ToInteger()), int(call.Argument(2).ToInteger()), s.stringArg(call, 3, usage, "content"))
}

func (s *session) filesInsertLines(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.insertLines(id, afterLine, content)"
	name := s.stringArg(call, 0, usage, "id")
	after := int(call.Argument(1).ToInteger())
	return s.editLines(sp, name, after+1, after, s.stringArg(call, 2, usage, "content"))
}

// filesSearchText is files.searchText(id, pattern) → {matches: [{line,
// content}], truncated}. The pattern is RE2: a string, or a RegExp whose
// source and i/m/s flags are used.
func (s *session) filesSearchText(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.searchText(id, pattern)"
	name := s.stringArg(call, 0, usage, "id")
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

func (s *session) filesLineCount(sp *files.Space, call goja.FunctionCall) goja.Value {
	n, err := sp.LineCount(s.stringArg(call, 0, "files.lineCount(id)", "id"))
	if err != nil {
		s.throwFiles(err)
	}
	return s.vm.ToValue(n)
}

func (s *session) filesReadBytes(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.readBytes(id, offset, length)"
	b, err := sp.ReadAt(s.stringArg(call, 0, usage, "id"), call.Argument(1).ToInteger(), call.Argument(2).ToInteger())
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

func (s *session) filesWriteBytes(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.writeBytes(id, offset, base64data)"
	name := s.stringArg(call, 0, usage, "id")
	info, err := sp.WriteAt(s.ctx, name, call.Argument(1).ToInteger(), s.decodeB64(usage, call.Argument(2)), files.WriteOptions{Budget: s.budget})
	if err != nil {
		s.throwFiles(err)
	}
	s.touched.touch(info.Name, opWrite)
	return s.okSize("size", info.Size)
}

func (s *session) filesAppendBytes(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.appendBytes(id, base64data)"
	name := s.stringArg(call, 0, usage, "id")
	data := s.decodeB64(usage, call.Argument(1))
	w, err := sp.Append(s.ctx, name, files.WriteOptions{Budget: s.budget})
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
	s.touched.touch(info.Name, opAppend)
	return s.okSize("size", info.Size)
}
