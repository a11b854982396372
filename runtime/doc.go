// Package runtime runs an agent's helper code in a goja sandbox: one fresh VM
// per execution, the file helpers of each supported dialect bound to one
// files.Space, and limits (time, call stack, memory, bytes, logs) that end a
// runaway script with a clear error while the process stays healthy.
//
// Bindings are thin: each validates its arguments, calls the Space or the
// content package, and converts the answer into a JS value. No file logic
// lives in JS glue.
package runtime
