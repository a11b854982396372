package js

import (
	"convfiles/files"
	"convfiles/runtime"
)

var writeOpts = files.WriteOptions{}

// transpiles is how many times r's TypeScript step ran.
func transpiles(r *runtime.Runner) int64 {
	in, _ := r.Interpreter(runtime.TypeScript)
	return in.(*interpreter).Transpiles()
}
