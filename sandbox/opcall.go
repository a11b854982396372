package sandbox

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"time"

	"convfiles/files"
)

// The worker wire is driven by files.Ops itself: a call names a method
// and carries its arguments in the method's own types, and the server
// calls that method on the conversation's Space by reflection and sends
// back its results. A new Ops method needs no code here: only the one
// line of its client (client.go), which the compiler asks for. What
// cannot cross a socket is translated at the two ends:
//
//   - a context.Context is not sent: the caller's deadline is, and the
//     server runs the call under the job's context with that deadline;
//   - files.WriteOptions crosses as wireOpts (the job's byte budget stays
//     in the server);
//   - a *regexp.Regexp crosses as its source, compiled again (RE2);
//   - a Blob (Open) crosses as a descriptor, a FileWriter (NewWriter) as
//     a handle the server keeps, and Sizes's callback as one answer:
//     special calls, in opserver.go.
//
// What a call changed is reported by the engine that commits it (see
// files.WithTouches), not guessed from the method's name.

var (
	opsType     = reflect.TypeFor[files.Ops]()
	contextType = reflect.TypeFor[context.Context]()
	errorType   = reflect.TypeFor[error]()
	optionsType = reflect.TypeFor[files.WriteOptions]()
	regexpType  = reflect.TypeFor[*regexp.Regexp]()
)

// registerOpsTypes tells gob every type an Ops method takes or returns,
// so that they cross in a message's Args and Results.
func init() {
	seen := map[reflect.Type]bool{}
	register := func(t reflect.Type) {
		switch {
		case seen[t], t == contextType, t == errorType, t == optionsType, t == regexpType,
			t.Kind() == reflect.Interface, t.Kind() == reflect.Func:
			return
		}
		seen[t] = true
		gob.Register(reflect.Zero(t).Interface())
	}
	for i := 0; i < opsType.NumMethod(); i++ {
		mt := opsType.Method(i).Type
		for j := 0; j < mt.NumIn(); j++ {
			register(mt.In(j))
		}
		for j := 0; j < mt.NumOut(); j++ {
			register(mt.Out(j))
		}
	}
	gob.Register(&wireOpts{})
}

// wireArgs is what crosses for the arguments of a call: each as is, but
// write options and regexps as they cross (see above).
func wireArgs(args ...any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case files.WriteOptions:
			out[i] = toWire(v)
		case *regexp.Regexp:
			out[i] = v.String()
		default:
			out[i] = a
		}
	}
	return out
}

// methods are the Ops methods of one Space, by name, looked up once.
type methods struct {
	sp     files.Ops
	byName map[string]reflect.Value
}

// method is the Ops method name of the Space, if Ops has one so named.
func (ms *methods) method(name string) (reflect.Value, bool) {
	if v, ok := ms.byName[name]; ok {
		return v, true
	}
	// Only the Ops methods that answer an error cross: not ID or
	// HostPath, which the client answers itself, and nothing else the
	// Space has (Close).
	m, ok := opsType.MethodByName(name)
	if !ok || m.Type.NumOut() == 0 || m.Type.Out(m.Type.NumOut()-1) != errorType {
		return reflect.Value{}, false
	}
	v := reflect.ValueOf(ms.sp).MethodByName(name)
	if ms.byName == nil {
		ms.byName = map[string]reflect.Value{}
	}
	ms.byName[name] = v
	return v, v.IsValid()
}

// invoke calls the Ops method m.Op of ms's Space with m's arguments,
// under ctx, and returns its results but the error.
func (ms *methods) invoke(ctx context.Context, m *message, budget *files.Budget) ([]any, error) {
	method, ok := ms.method(m.Op)
	if !ok {
		return nil, files.E(m.Op, files.KindInvalid, "", "no such file operation", nil)
	}
	mt := method.Type()
	in := make([]reflect.Value, mt.NumIn())
	args := m.Args
	for i := range in {
		pt := mt.In(i)
		if pt == contextType {
			in[i] = reflect.ValueOf(ctx)
			continue
		}
		if len(args) == 0 {
			return nil, fmt.Errorf("sandbox: %s takes more arguments than were sent", m.Op)
		}
		v, err := argValue(pt, args[0], budget)
		if err != nil {
			return nil, err
		}
		in[i], args = v, args[1:]
	}
	if len(args) != 0 {
		return nil, fmt.Errorf("sandbox: %s takes fewer arguments than were sent", m.Op)
	}
	out := method.Call(in)
	var err error
	if e := out[len(out)-1]; !e.IsNil() {
		err = e.Interface().(error)
	}
	results := make([]any, len(out)-1)
	for i := range results {
		results[i] = out[i].Interface()
	}
	return results, err
}

// argValue is one argument as the method takes it.
func argValue(pt reflect.Type, a any, budget *files.Budget) (reflect.Value, error) {
	switch pt {
	case optionsType:
		w, _ := a.(*wireOpts)
		return reflect.ValueOf(w.options(budget)), nil
	case regexpType:
		src, _ := a.(string)
		re, err := regexp.Compile(src)
		if err != nil {
			return reflect.Value{}, files.E("search", files.KindInvalid, "", "the pattern is not a regular expression: "+err.Error(), nil)
		}
		return reflect.ValueOf(re), nil
	}
	if a == nil {
		return reflect.Zero(pt), nil
	}
	v := reflect.ValueOf(a)
	if !v.Type().AssignableTo(pt) {
		return reflect.Value{}, fmt.Errorf("sandbox: an argument of type %s was sent where %s is taken", v.Type(), pt)
	}
	return v, nil
}

// result is the i-th result of an answer, as T (its zero when absent).
func result[T any](r *message, i int) T {
	var zero T
	if r == nil || i >= len(r.Results) {
		return zero
	}
	v, _ := r.Results[i].(T)
	return v
}

// callContext is the context a call runs under in the server: the job's,
// with the caller's deadline when it sent one.
func callContext(job context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	if deadline.IsZero() {
		return context.WithCancel(job)
	}
	return context.WithDeadline(job, deadline)
}

// errNoDescriptor is an answer to Open that came without its file.
var errNoDescriptor = errors.New("sandbox: no file came with the answer to open")
