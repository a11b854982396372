// Package runtime is the run core every language of convfiles shares:
// the Runner, which runs a script under its limits (time, memory, bytes,
// logs, result size) and reports it; the Run, which is one run's files,
// byte budget, logs, io handles, SABRE helpers and the operations table;
// and the Interpreter seam a language's package registers over it.
// JavaScript and TypeScript are package runtime/js (goja, esbuild), Lua
// and Luau-style scripts package runtime/lua (gopher-lua); a third
// language is one more package.
//
// Bindings are thin: each validates its arguments, calls an operation of
// package ops (the one table every door shares) or the content package,
// and converts the answer into a value of the script's language. No file
// logic lives in the glue of any language.
//
// A server runs scripts inside worker processes (package sandbox), never
// in its own process: a bug of an interpreter or a decoder meets a
// worker's kernel limits. runtime must never import an interpreter (goja,
// gopher-lua, esbuild), an HTTP door (routes, routes/mcp), the sandbox or
// a storage implementation: it sees files only through files.Ops.
package runtime
