// Package runtime runs an agent's helper code: JavaScript and TypeScript in
// goja (TypeScript compiled by esbuild) here, Lua and Luau-style scripts in
// gopher-lua in package runtime/lua. It is also the run core every language
// shares (Run: the run's files, budget, logs, io handles, SABRE helpers and
// the operations table; the limits and the report), and a language is an
// Interpreter registered over it. Every run gets a fresh interpreter, the file helpers of each
// supported dialect (SABRE's write_file and read_file, code-mcp's
// file.save, toolscript's io library, the files.* API and its formats)
// bound to one files.Ops, and limits (time, call stack, memory, bytes,
// logs, result size) that end a runaway script with a clear error while
// the process stays healthy.
//
// Bindings are thin: each validates its arguments, calls an operation of
// package ops (the one table every door shares) or the content package,
// and converts the answer into a value of the script's language. No file
// logic lives in the glue of either language.
//
// A server runs this package inside worker processes (package sandbox),
// never in its own process: a bug of an interpreter or a decoder meets a
// worker's kernel limits. runtime never imports an HTTP door (routes,
// routes/mcp), the sandbox, or a storage implementation: it sees files
// only through files.Ops.
package runtime
