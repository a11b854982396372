package files

import "context"

// Touch is what a change did to one file: one vocabulary for the engine
// that commits it, the operations that make it and the run reports that
// list it.
type Touch int

// The touches a change reports.
const (
	Wrote    Touch = iota // created or replaced
	Appended              // grew at its end
	Removed               // deleted, or renamed away
)

// String is the touch as a run's report names it: "write", "append" or
// "remove".
func (t Touch) String() string {
	switch t {
	case Appended:
		return "append"
	case Removed:
		return "remove"
	}
	return "write"
}

type touchesKey struct{}

// WithTouches returns ctx carrying fn, which every change made with ctx
// calls once it is committed, with each file it touched and how (a
// rename touches two). fn must not block.
func WithTouches(ctx context.Context, fn func(name string, t Touch)) context.Context {
	return context.WithValue(ctx, touchesKey{}, fn)
}

// Touched tells the listener ctx carries (see WithTouches), if any, that
// a committed change touched name.
func Touched(ctx context.Context, name string, t Touch) {
	if fn, ok := ctx.Value(touchesKey{}).(func(string, Touch)); ok {
		fn(name, t)
	}
}
