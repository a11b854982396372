// Package luau lowers Luau, the Lua dialect code-mcp and toolscript
// scripts are written in, to the Lua 5.1 (with goto) that gopher-lua
// runs: compound assignment, continue, type annotations and declarations,
// backtick string interpolation, if-expressions, floor division, Luau's
// number literals and string escapes, and generalized iteration. Every
// token of the output stays on its line of the input, so an error the
// interpreter reports names the user's line.
//
// The lowered code calls four helpers the interpreter provides as
// globals: __luau_idiv (floor division), __luau_iter (generalized
// iteration), __luau_interp (string interpolation) and __luau_num (the
// bounds of a numeric for, which Luau takes as numeric strings too).
// Luau's runtime type checks are not done: types are parsed and dropped.
package luau
