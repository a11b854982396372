package formats

import (
	"context"
	"encoding/json"
	"reflect"
	goruntime "runtime"
	"strings"

	"convfiles/files"
)

// Operation runs one formats function on its arguments as JSON. It is how
// a door runs an operation in a worker process: the operation's name and
// arguments cross the worker's pipe, the answer comes back as JSON.
type Operation func(ctx context.Context, e Env, args json.RawMessage) (any, error)

var operations = map[string]Operation{}

func register[A, R any](f func(context.Context, Env, A) (R, error)) {
	operations[NameOf(f)] = func(ctx context.Context, e Env, raw json.RawMessage) (any, error) {
		var a A
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, files.E(NameOf(f), files.KindInvalid, "", "arguments: "+err.Error(), nil)
			}
		}
		return f(ctx, e, a)
	}
}

func init() {
	register(CreateSheet)
	register(ListSheets)
	register(SheetSummary)
	register(ReadRange)
	register(WriteRange)
	register(ReadCell)
	register(WriteCell)
	register(AddSheet)
	register(DeleteSheet)
	register(InsertRows)
	register(DeleteRows)
	register(SetFormat)
	register(AutoFilter)
	register(PDFInfo)
	register(ExtractText)
	register(CreatePDF)
	register(AddPage)
	register(DeletePage)
	register(AddText)
	register(AddImage)
	register(FormFields)
	register(FillForm)
	register(Merge)
	register(SplitPages)
	register(ImageInfo)
	register(Resize)
	register(Crop)
	register(Convert)
	register(Composite)
	register(ToBase64)
	register(PreviewOf)
	register(RenderChart)
	register(FromMarkdown)
	register(FromRows)
}

// NameOf is the name Call knows the formats function f by: its Go name,
// such as "ReadRange".
func NameOf(f any) string {
	name := goruntime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	return name[strings.LastIndexByte(name, '.')+1:]
}

// Call runs the operation named name (see NameOf) with JSON arguments.
func Call(ctx context.Context, e Env, name string, args json.RawMessage) (any, error) {
	op, ok := operations[name]
	if !ok {
		return nil, files.E("format", files.KindInvalid, name, "no such format operation", nil)
	}
	return op(ctx, e, args)
}

// Caller runs formats operations by name: Local in this process, or a
// sandbox pool in worker processes, where a decoder that loops or
// explodes on a hostile file can be stopped. The doors take a Caller.
type Caller interface {
	Call(ctx context.Context, e Env, name string, args any) (json.RawMessage, error)
}

// Local runs operations in this process.
type Local struct{}

// Call runs the operation and answers its result as JSON.
func (Local) Call(ctx context.Context, e Env, name string, args any) (json.RawMessage, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	out, err := Call(ctx, e, name, raw)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}
