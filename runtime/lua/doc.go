// Package lua runs an agent's Lua and Luau-style scripts in gopher-lua,
// over the run core of package runtime: the same files, byte budget,
// limits, SABRE helpers, operations table and report as JavaScript. It
// adds the interpreter (a fresh state per run, with only the safe
// libraries), seed 001's sandboxed io library, seed 000's file.save, the
// files.* API as Lua functions, and a Luau hint for what gopher-lua does
// not parse. It registers itself with runtime.Register when imported: a
// program that runs Lua imports it, as cmd/convfiles does.
//
// lua must never import a door (routes, routes/mcp), the sandbox or a
// storage implementation: it reaches files only through the run core.
package lua
