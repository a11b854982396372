package luau

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLower: any input lowers or is refused with an *Error; nothing
// else escapes.
func FuzzLower(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/luau/*.luau")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b[:min(len(b), 4096)]))
		}
	}
	f.Add("local x: {[string]: (number) -> ()} = `{a}{`{b}`}` x += if a then b else c // 2")
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Lower(src)
		var le *Error
		if err != nil && !errors.As(err, &le) {
			t.Fatalf("%q: %v", src, err)
		}
	})
}
