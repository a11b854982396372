package lua

import (
	"encoding/base64"
	"path"

	lua "github.com/yuin/gopher-lua"

	"convfiles/content"
	"convfiles/ops"
	"convfiles/runtime"
)

// luaContentType names the metatable of content tables.
const luaContentType = "convfiles.content"

// installLuaSABRE binds SABRE's helpers (seed 003) as Lua globals:
// write_file, read_file (a content table with get_str), list_files,
// delete_file and file_info.
func (s *luaSession) installLuaSABRE() {
	L := s.L
	mt := L.NewTypeMetatable(luaContentType)
	methods := L.NewTable()
	L.SetFuncs(methods, map[string]lua.LGFunction{"get_str": s.luaGetStr, "get_bytes": s.luaGetBytes})
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		key := L.CheckString(2)
		if m := methods.RawGetString(key); m != lua.LNil {
			L.Push(m)
			return 1
		}
		L.Push(s.contentData(L.CheckTable(1), key))
		return 1
	}))
	for name, fn := range map[string]lua.LGFunction{"write_file": s.luaWriteFile, "read_file": s.luaReadFile,
		"list_files": s.luaListFiles, "delete_file": s.luaDeleteFile, "file_info": s.luaFileInfo} {
		L.SetGlobal(name, L.NewFunction(fn))
	}
}

// luaWriteFile is write_file(name, content) → the file's link. content is
// a string or number, a content table from read_file (its bytes), or any
// other table (saved as indented JSON).
func (s *luaSession) luaWriteFile(L *lua.LState) int {
	s.needSpace("write_file")
	name := L.CheckString(1)
	var data []byte
	switch v := L.Get(2).(type) {
	case lua.LString:
		data = runtime.StringBytes(string(v))
	case lua.LNumber:
		data = []byte(v.String())
	case *lua.LTable:
		if c, ok := s.contents[v]; ok {
			data = content.Data(c)
			break
		}
		shaped, ok, err := runtime.ContentShapeBytes(func(key string) (string, bool) {
			str, ok := v.RawGetString(key).(lua.LString)
			return string(str), ok
		})
		if err != nil {
			L.RaiseError("ValidationError: %s", err.Error())
		}
		if ok {
			data = shaped
			break
		}
		g, err := luaToGo(v, 0)
		if err == nil {
			data, err = encodeJSON(g, true)
		}
		if err != nil {
			L.RaiseError("ValidationError: write_file(name, content): the table cannot be saved as JSON: %s", err.Error())
		}
	default:
		L.RaiseError("ValidationError: write_file(name, content): content is a %s; give a string, a table, or what read_file returned", L.Get(2).Type())
	}
	info, err := s.SaveBytes("write_file", name, data)
	if err != nil {
		s.raiseFiles(err)
	}
	L.Push(lua.LString(s.LinkOrPath(info.Name)))
	return 1
}

// luaReadFile is read_file(name) → a content table: type, name,
// mime_type, size, url, and text, width, height or pages as they apply,
// with get_str() and get_bytes().
func (s *luaSession) luaReadFile(L *lua.LState) int {
	c, url, err := s.ReadContent(L.CheckString(1))
	if err != nil {
		s.raiseFiles(err)
	}
	m := c.Info()
	t := L.NewTable()
	t.RawSetString("type", lua.LString(c.Kind()))
	t.RawSetString("name", lua.LString(m.Name))
	t.RawSetString("mime_type", lua.LString(m.MIME))
	t.RawSetString("size", lua.LNumber(m.Size))
	t.RawSetString("url", lua.LString(url))
	t.RawSetString("filename", lua.LString(path.Base(m.Name)))
	switch c := c.(type) {
	case *content.Text:
		t.RawSetString("text", lua.LString(c.Text))
		t.RawSetString("full_text", lua.LString(c.Text))
	case *content.Image:
		t.RawSetString("width", lua.LNumber(c.Width))
		t.RawSetString("height", lua.LNumber(c.Height))
	case *content.PDF:
		t.RawSetString("pages", lua.LNumber(c.Pages))
		t.RawSetString("text", lua.LString(c.Text))
	}
	L.SetMetatable(t, L.GetTypeMetatable(luaContentType))
	s.contents[t] = c
	L.Push(t)
	return 1
}

// contentData is the base64 of a content's bytes asked for as data or by
// SABRE's name for its kind (image_data, pdf_data, file_data), made on
// first use: reading a PDF for its text never pays for it. Any other
// missing key is nil.
func (s *luaSession) contentData(t *lua.LTable, key string) lua.LValue {
	c, ok := s.contents[t]
	if !ok || c.Kind() == content.KindText || key != "data" && key != string(c.Kind())+"_data" {
		return lua.LNil
	}
	data := lua.LString(base64.StdEncoding.EncodeToString(content.Data(c)))
	t.RawSetString("data", data)
	t.RawSetString(string(c.Kind())+"_data", data)
	return data
}

// contentArg is the content table argument 1 of a method.
func (s *luaSession) contentArg(L *lua.LState) content.Content {
	c, ok := s.contents[L.CheckTable(1)]
	if !ok {
		L.ArgError(1, "a content from read_file expected (call it as c:get_str())")
	}
	return c
}

// luaGetStr is c:get_str(): the text, or a description of other bytes.
func (s *luaSession) luaGetStr(L *lua.LState) int {
	c := s.contentArg(L)
	L.Push(lua.LString(runtime.ContentString(c, lua.LVAsString(L.CheckTable(1).RawGetString("url")))))
	return 1
}

// luaGetBytes is c:get_bytes(): the bytes as a Lua string (Lua strings
// hold any bytes); get_bytes("base64") gives them as base64.
func (s *luaSession) luaGetBytes(L *lua.LState) int {
	data := content.Data(s.contentArg(L))
	if L.OptString(2, "") == "base64" {
		L.Push(lua.LString(base64.StdEncoding.EncodeToString(data)))
	} else {
		L.Push(lua.LString(data))
	}
	return 1
}

// luaListFiles is list_files(pattern?) → an array of {name, size,
// mime_type, modified, url}, sorted by name (the first 1000; the array's
// total says how many match).
func (s *luaSession) luaListFiles(L *lua.LState) int {
	sp := s.needSpace("list_files")
	in := ops.ListIn{Pattern: L.OptString(1, "")}
	if opts, ok := L.Get(2).(*lua.LTable); ok {
		in.Limit = int(lua.LVAsNumber(opts.RawGetString("limit")))
		in.Offset = int(lua.LVAsNumber(opts.RawGetString("offset")))
	}
	page, err := ops.List(s.Ctx, s.OpsEnv(sp), in)
	if err != nil {
		s.raiseFiles(err)
	}
	t := L.CreateTable(len(page.Files), 2)
	for i, f := range page.Files {
		e := L.CreateTable(0, 5)
		e.RawSetString("name", lua.LString(f.Name))
		e.RawSetString("size", lua.LNumber(f.Size))
		e.RawSetString("mime_type", lua.LString(f.MIME))
		e.RawSetString("modified", lua.LString(f.ModifiedOn))
		e.RawSetString("url", lua.LString(f.URL))
		t.RawSetInt(i+1, e)
	}
	t.RawSetString("total", lua.LNumber(page.Total))
	if page.NextOffset > 0 {
		t.RawSetString("next_offset", lua.LNumber(page.NextOffset))
	}
	L.Push(t)
	return 1
}

// luaDeleteFile is delete_file(name) → true.
func (s *luaSession) luaDeleteFile(L *lua.LState) int {
	s.needSpace("delete_file")
	if _, err := s.RemoveFile("delete_file", L.CheckString(1)); err != nil {
		s.raiseFiles(err)
	}
	L.Push(lua.LTrue)
	return 1
}

// luaFileInfo is file_info(name) → {name, size, type, mime_type,
// modified, url}.
func (s *luaSession) luaFileInfo(L *lua.LState) int {
	s.needSpace("file_info")
	f, err := s.Describe(L.CheckString(1))
	if err != nil {
		s.raiseFiles(err)
	}
	t := L.CreateTable(0, 6)
	t.RawSetString("name", lua.LString(f.Name))
	t.RawSetString("size", lua.LNumber(f.Size))
	t.RawSetString("type", lua.LString(f.Type))
	t.RawSetString("mime_type", lua.LString(f.MIME))
	t.RawSetString("modified", lua.LString(f.Modified))
	t.RawSetString("url", lua.LString(f.URL))
	L.Push(t)
	return 1
}
