package js

import (
	"encoding/base64"
	"path"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"convfiles/content"
	"convfiles/runtime"
)

// contentObject builds the JS view of a content: {type, name, mime_type,
// size, url} plus text, width, height and pages as they apply, a
// non-enumerable data getter (base64 of the bytes, computed on first use so
// reading a PDF for its text never pays for it) and get_str(). SABRE's
// names for the same (seed 003) are there too, not enumerated so JSON of
// the object stays as it was: filename, full_text for a text, and
// image_data, pdf_data or file_data beside data.
func (s *session) contentObject(c content.Content, url string) *goja.Object {
	m := c.Info()
	o := s.vm.NewObject()
	o.Set("type", string(c.Kind()))
	o.Set("name", m.Name)
	o.Set("mime_type", m.MIME)
	o.Set("size", m.Size)
	o.Set("url", url)
	switch c := c.(type) {
	case *content.Text:
		o.Set("text", c.Text)
		o.DefineDataProperty("full_text", s.vm.ToValue(c.Text), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	case *content.Image:
		o.Set("width", c.Width)
		o.Set("height", c.Height)
	case *content.PDF:
		o.Set("pages", c.Pages)
		o.Set("text", c.Text)
		if c.ExtractErr != "" {
			o.Set("extract_error", c.ExtractErr)
		}
	}
	if c.Kind() != content.KindText {
		var cached goja.Value
		getter := s.vm.ToValue(func(goja.FunctionCall) goja.Value {
			if cached == nil {
				cached = s.vm.ToValue(base64.StdEncoding.EncodeToString(content.Data(c)))
			}
			return cached
		})
		o.DefineAccessorProperty("data", getter, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
		o.DefineAccessorProperty(string(c.Kind())+"_data", getter, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	o.DefineDataProperty("filename", s.vm.ToValue(path.Base(m.Name)), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	str := runtime.ContentString(c, url)
	o.DefineDataProperty("get_str", s.vm.ToValue(func(goja.FunctionCall) goja.Value { return s.vm.ToValue(str) }),
		goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	o.DefineDataPropertySymbol(s.contentKey, s.vm.ToValue(contentRef{c}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return o
}

// contentRef carries a content on its JS object, under a symbol only this
// run knows, so the two are collected together. Its field is unexported, so
// a script that finds the symbol sees an empty object.
type contentRef struct{ c content.Content }

// contentOf returns the content behind one of this run's content objects.
func (s *session) contentOf(o *goja.Object) (content.Content, bool) {
	v := o.GetSymbol(s.contentKey)
	if v == nil {
		return nil, false
	}
	ref, ok := v.Export().(contentRef)
	return ref.c, ok
}

// contentBytes converts write_file's content argument to read-only bytes: a string as
// UTF-8; ArrayBuffer and typed arrays as their bytes; a content object as
// its bytes (an image's decoded pixels file, a text's text); an array of
// contents as their texts joined by a blank line; any other object or array
// as indented JSON; numbers and booleans as their text.
func (s *session) contentBytes(v goja.Value, usage string) []byte {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		s.throw("TypeError", usage+": content is missing; pass a string, bytes, an object or a content from read_file")
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return runtime.StringBytes(v.String())
	}
	if b, ok := s.bufferBytes(obj); ok {
		return b
	}
	if b, ok := s.contentLikeBytes(obj); ok {
		return b
	}
	if obj.ClassName() == "Array" {
		if texts, ok := s.contentTexts(obj); ok {
			return []byte(strings.Join(texts, "\n\n"))
		}
	}
	return s.indentedJSON(v, usage)
}

// bufferBytes returns the bytes behind an ArrayBuffer or any view of one.
func (s *session) bufferBytes(obj *goja.Object) ([]byte, bool) {
	if ab, ok := obj.Export().(goja.ArrayBuffer); ok {
		return ab.Bytes(), true
	}
	if obj.ClassName() == "Array" {
		return nil, false
	}
	bv := obj.Get("buffer")
	if bv == nil {
		return nil, false
	}
	buf, ok := bv.Export().(goja.ArrayBuffer)
	if !ok {
		return nil, false
	}
	off, n := obj.Get("byteOffset").ToInteger(), obj.Get("byteLength").ToInteger()
	b := buf.Bytes()
	if off < 0 || n < 0 || off+n > int64(len(b)) {
		return nil, false
	}
	return b[off : off+n], true
}

// contentLikeBytes accepts our own content objects and objects shaped like
// them ({type: "image", data: base64}, {type: "text", text}).
func (s *session) contentLikeBytes(obj *goja.Object) ([]byte, bool) {
	if c, ok := s.contentOf(obj); ok {
		return content.Data(c), true
	}
	b, ok, err := runtime.ContentShapeBytes(func(key string) (string, bool) { return exportString(obj.Get(key)) })
	if err != nil {
		s.throw("ValidationError", err.Error())
	}
	return b, ok
}

// contentTexts returns get_str() of every element when all elements of a
// non-empty array are contents.
func (s *session) contentTexts(arr *goja.Object) ([]string, bool) {
	n := arr.Get("length").ToInteger()
	if n == 0 {
		return nil, false
	}
	texts := make([]string, 0, n)
	for i := int64(0); i < n; i++ {
		el, ok := arr.Get(strconv.FormatInt(i, 10)).(*goja.Object)
		if !ok {
			return nil, false
		}
		if c, ok := s.contentOf(el); ok {
			texts = append(texts, c.String())
			continue
		}
		typ, _ := exportString(el.Get("type"))
		t, isText := exportString(el.Get("text"))
		if typ == "" || !isText {
			return nil, false
		}
		texts = append(texts, t)
	}
	return texts, true
}

func (s *session) indentedJSON(v goja.Value, usage string) []byte {
	j := s.vm.Get("JSON").ToObject(s.vm)
	stringify, _ := goja.AssertFunction(j.Get("stringify"))
	r, err := stringify(j, v, goja.Null(), s.vm.ToValue(2))
	if err != nil {
		panic(err)
	}
	if goja.IsUndefined(r) {
		s.throw("TypeError", usage+": this content cannot be saved as JSON")
	}
	return []byte(r.String())
}

// exportString returns v as a Go string when it is a JS string; v may be nil
// (a missing property).
func exportString(v goja.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	s, ok := v.Export().(string)
	return s, ok
}
