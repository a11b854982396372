// Package purego, in convfiles' tree, stands in for
// github.com/ebitengine/purego (go.mod replaces it with this folder), so
// that nothing convfiles builds loads a shared library into its process.
//
// The WebP codec convfiles uses (github.com/gen2brain/webp) decodes and
// encodes with libwebp compiled to Go, and, in a dynamically linked build
// on a machine with a system libwebp, would dlopen that instead through
// purego. convfiles wants neither half of that:
//
//   - purego links its fake cgo runtime into a build without cgo (a
//     machine with Go and no C compiler), which makes the runtime refuse
//     syscall.AllThreadsSyscall, and with it the Landlock confinement of
//     the sandbox workers: every worker failed to start;
//   - a system library of whatever version the machine has, decoding
//     hostile images, is not the codec convfiles tests.
//
// Dlopen always fails, so the codec takes its compiled-in path on every
// machine, as a release build (-tags nodynamic) always did.
package purego

import "errors"

// RTLD_NOW and RTLD_GLOBAL are dlopen's flags, as purego names them.
const (
	RTLD_NOW    = 0x00002
	RTLD_GLOBAL = 0x00100
)

// errDisabled is every Dlopen's answer.
var errDisabled = errors.New("convfiles loads no shared libraries: the compiled-in codec is used")

// Dlopen refuses to load path.
func Dlopen(path string, mode int) (uintptr, error) { return 0, errDisabled }

// RegisterLibFunc is never reached: it needs a handle Dlopen never gives.
func RegisterLibFunc(fptr any, handle uintptr, name string) {
	panic("purego.RegisterLibFunc without a library: " + name)
}

// NewCallback makes no callback: the codec asks for one when it starts,
// and would hand it only to a library Dlopen never loads.
func NewCallback(fn any) uintptr { return 0 }
