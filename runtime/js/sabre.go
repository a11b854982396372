package js

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"

	"convfiles/files"
	"convfiles/ops"
)

// installSABRE binds the helpers of SABRE's dialect (seed 003):
// write_file, read_file, list_files, delete_file and file_info.
func (s *session) installSABRE() {
	s.lazyFunc("write_file", s.writeFile)
	s.lazyFunc("read_file", s.readFile)
	s.lazyFunc("list_files", s.listFiles)
	s.lazyFunc("delete_file", s.deleteFile)
	s.lazyFunc("file_info", s.fileInfo)
}

// needSpace returns the run's Space or throws when the run has none.
func (s *session) needSpace(fn string) files.Ops {
	sp, err := s.SpaceFor(fn)
	if err != nil {
		s.throwFiles(err)
	}
	return sp
}

// stringArg returns argument i, which must be a string.
func (s *session) stringArg(call goja.FunctionCall, i int, usage, what string) string {
	v := call.Argument(i)
	if str, ok := v.Export().(string); ok {
		if strings.ContainsRune(str, utf8.RuneError) && hasLoneSurrogate(v) {
			s.throw("ValidationError", usage+": "+what+" holds a lone UTF-16 surrogate; names must be valid Unicode")
		}
		return str
	}
	s.throw("TypeError", usage+": "+what+" must be a string, not "+typeName(v))
	return ""
}

// hasLoneSurrogate reports whether a JS string holds a UTF-16 surrogate
// without its pair, which Go would silently turn into U+FFFD.
func hasLoneSurrogate(v goja.Value) bool {
	str, ok := v.(goja.String)
	if !ok {
		return false
	}
	n := str.Length()
	for i := 0; i < n; i++ {
		c := str.CharAt(i)
		switch {
		case utf16.IsSurrogate(rune(c)) && c < 0xdc00 && i+1 < n && str.CharAt(i+1) >= 0xdc00 && str.CharAt(i+1) <= 0xdfff:
			i++
		case utf16.IsSurrogate(rune(c)):
			return true
		}
	}
	return false
}

func typeName(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		return o.ClassName()
	}
	return v.ExportType().Kind().String()
}

// writeFile is write_file(name, content) → the file's link.
func (s *session) writeFile(call goja.FunctionCall) goja.Value {
	info := s.save(call, "write_file", "write_file(name, content)")
	return s.vm.ToValue(s.LinkOrPath(info.Name))
}

// save writes the content argument of call as the name argument, charged
// to the run's budget, for write_file and file.save.
func (s *session) save(call goja.FunctionCall, fn, usage string) files.Info {
	s.needSpace(fn)
	name := s.stringArg(call, 0, usage, "name")
	info, err := s.SaveBytes(fn, name, s.contentBytes(call.Argument(1), usage))
	if err != nil {
		s.throwFiles(err)
	}
	return info
}

// readFile is read_file(name) → a content object. An absolute path is read
// only inside a configured read root.
func (s *session) readFile(call goja.FunctionCall) goja.Value {
	c, url, err := s.ReadContent(s.stringArg(call, 0, "read_file(name)", "name"))
	if err != nil {
		s.throwFiles(err)
	}
	return s.contentObject(c, url)
}

// listFiles is list_files(pattern?, {limit, offset}?) → [{name, size,
// mime_type, modified, url}], sorted by name: the list operation, a page
// (1000 files by default) at a time from the index, with total and, when
// more remain, next_offset on the array. A pattern without "/" matches
// base names at any depth ("*.csv"); one with "/" matches whole names
// ("data/*.json").
func (s *session) listFiles(call goja.FunctionCall) goja.Value {
	const usage = "list_files(pattern?, options?)"
	sp := s.needSpace("list_files")
	in := ops.ListIn{}
	if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
		in.Pattern = s.stringArg(call, 0, usage, "pattern")
	}
	if o, ok := call.Argument(1).(*goja.Object); ok {
		for key, dst := range map[string]*int{"limit": &in.Limit, "offset": &in.Offset} {
			if v := o.Get(key); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
				*dst = int(v.ToInteger())
			}
		}
	}
	page, err := ops.List(s.Ctx, s.OpsEnv(sp), in)
	if err != nil {
		s.throwFiles(err)
	}
	out := make([]any, 0, len(page.Files))
	for _, f := range page.Files {
		o := s.vm.NewObject()
		o.Set("name", f.Name)
		o.Set("size", f.Size)
		o.Set("mime_type", f.MIME)
		o.Set("modified", f.ModifiedOn)
		o.Set("url", f.URL)
		out = append(out, o)
	}
	arr := s.vm.NewArray(out...)
	arr.Set("total", page.Total)
	if page.NextOffset > 0 {
		arr.Set("next_offset", page.NextOffset)
	}
	return arr
}

// deleteFile is delete_file(name) → true.
func (s *session) deleteFile(call goja.FunctionCall) goja.Value {
	s.needSpace("delete_file")
	if _, err := s.RemoveFile("delete_file", s.stringArg(call, 0, "delete_file(name)", "name")); err != nil {
		s.throwFiles(err)
	}
	return s.vm.ToValue(true)
}

// fileInfo is file_info(name) → {name, size, type, mime_type, modified, url},
// with the type and MIME type sniffed from the file's first bytes.
func (s *session) fileInfo(call goja.FunctionCall) goja.Value {
	s.needSpace("file_info")
	f, err := s.Describe(s.stringArg(call, 0, "file_info(name)", "name"))
	if err != nil {
		s.throwFiles(err)
	}
	o := s.vm.NewObject()
	o.Set("name", f.Name)
	o.Set("size", f.Size)
	o.Set("type", f.Type)
	o.Set("mime_type", f.MIME)
	o.Set("modified", f.Modified)
	o.Set("url", f.URL)
	return o
}
