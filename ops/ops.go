// Package ops is the one table of file operations. Every operation (list,
// read, write, edit, copy, rename, delete, versions, the format helpers) is
// one Go function with a typed input and output, defined here once with
// its limits and its errors; the doors (JS helpers, REST, MCP tools, the
// CLI) are adapters that walk the table: they decode arguments, call
// Op.Call and encode the answer. A new operation is one entry in the
// table, and every door has it.
//
// ops must never import HTTP, SQL, a script engine, the engine or a door:
// every door imports it.
package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"sync"

	"convfiles/files"
	"convfiles/formats"
)

// Effect says how an operation treats a conversation, for clients that
// ask before running destructive tools and for doors that allow only
// reads.
type Effect int

// The effects, from harmless to destructive.
const (
	Reads    Effect = iota // reads only
	Writes                 // adds or changes, never loses content
	Destroys               // replaces or removes content (kept as a version)
)

// Env is what an operation works with: one conversation's files, the
// options of the caller's writes, and the door's hooks.
type Env struct {
	Space files.Ops
	// Write carries the caller's byte budget and session into every write.
	Write files.WriteOptions
	// Formats runs the format operations: in worker processes for a
	// server, in this process when nil.
	Formats formats.Caller
	// Link, when set, is a file's browser link.
	Link func(name string) string
	// Touched, when set, is told of every file an operation changes.
	Touched func(name string, t files.Touch)
	// MaxText bounds the text one read_text answers: MaxTextAnswer for
	// doors that answer in one message, files.MaxReadAt when zero.
	MaxText int64
	// MaxAnswer, when set, bounds in bytes the pages of listings a door
	// answers: ModelListing for a door that answers a model.
	MaxAnswer int
}

// Op is one operation as every door sees it.
type Op struct {
	// Name is the operation's one name, snake_case: "read_text",
	// "spreadsheet_read_range". The REST route and the CLI use it.
	Name string
	// Group is the JS namespace: "" for files.*, else
	// files.spreadsheet.*, files.pdf.*, files.image.*.
	Group string
	// JS is the helper's name in scripts: "readText", "readRange".
	JS string
	// Params are the positional parameters of the JS helper, as JSON
	// field names; "...options" spreads an object of the other fields.
	Params []string
	// Tool is the MCP tool's name.
	Tool string
	// Effect is how the operation treats the conversation.
	Effect Effect
	// Wrap names the property a result that is not a JSON object is
	// answered under by doors that answer objects.
	Wrap string
	// Unwrap, when set, is the result field a JS helper returns alone
	// (seed 004's files.list returns the array of files).
	Unwrap string
	// Sample is an input that works, but for the file it names (the
	// first parameter), as JSON ("{}" when the file alone is enough):
	// the doors' tests call the operation with it through every door.
	Sample string
	// Bulk marks a read of many files (a content search): a Space that
	// runs such reads whole where the files are (Delegate) is handed the
	// operation rather than asked for each file.
	Bulk bool
	// SnakeJS keeps the result's snake_case keys in scripts, as seed
	// 004's file objects have them (mime_type, modified_on); otherwise
	// scripts see camelCase (totalLines).
	SnakeJS bool
	// In and Out are the types of the input and the result.
	In, Out reflect.Type

	newIn func() any
	run   func(ctx context.Context, env Env, in any) (any, error)
}

// Call decodes args (a JSON object of In's fields; unknown fields are
// refused) and runs the operation.
func (op Op) Call(ctx context.Context, env Env, args json.RawMessage) (any, error) {
	if err := op.authorize(ctx, env); err != nil {
		return nil, err
	}
	in, err := op.DecodeArgs(args, nil)
	if err != nil {
		return nil, files.E(op.Name, files.KindInvalid, "", err.Error(), nil)
	}
	return op.dispatch(ctx, env, in)
}

// NewIn returns a pointer to a zero input, for a door that decodes the
// arguments itself (to word its own errors) before Run.
func (op Op) NewIn() any { return op.newIn() }

// Run runs the operation on in, a pointer from NewIn.
func (op Op) Run(ctx context.Context, env Env, in any) (any, error) {
	if err := op.authorize(ctx, env); err != nil {
		return nil, err
	}
	return op.dispatch(ctx, env, in)
}

var table = map[string]Op{}

// def adds f to the table as op, with its input and output types.
func def[I, O any](op Op, f func(context.Context, Env, I) (O, error)) {
	op.In, op.Out = reflect.TypeFor[I](), reflect.TypeFor[O]()
	op.newIn = func() any { return new(I) }
	op.run = func(ctx context.Context, env Env, in any) (any, error) { return f(ctx, env, *in.(*I)) }
	if _, dup := table[op.Name]; dup {
		panic("ops: " + op.Name + " is defined twice")
	}
	table[op.Name] = op
}

// Decode reads a JSON object into in, refusing fields in does not have.
func Decode(raw json.RawMessage, in any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(in)
}

// All returns every operation, ordered by name. The slice is shared:
// callers must not change it.
func All() []Op { return sorted() }

// sorted is the table in name order, made once: every operation is
// defined while the program starts, and every script's helpers are made
// from this list.
var sorted = sync.OnceValue(func() []Op {
	out := make([]Op, 0, len(table))
	for _, op := range table {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
})

// Lookup returns the operation named name.
func Lookup(name string) (Op, bool) {
	op, ok := table[name]
	return op, ok
}

// touched tells env of a change, when it listens.
func (env Env) touched(name string, t files.Touch) {
	if env.Touched != nil {
		env.Touched(name, t)
	}
}

// link is a file's browser link, or "".
func (env Env) link(name string) string {
	if env.Link == nil {
		return ""
	}
	return env.Link(name)
}
