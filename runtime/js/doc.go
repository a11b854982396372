// Package js runs an agent's JavaScript and TypeScript in goja, over the
// run core of package runtime: TypeScript is compiled by esbuild (and
// cached per Runner), every run gets a fresh VM with SABRE's helpers, seed
// 000's file.save, seed 001's io library, the files.* API over the
// operations table, console, timers, a subset of the Web API and the
// guards that bound what a script may build (JSON, nesting, generators).
// Lint checks a script's syntax and ESLint's rules (runtime/lint). It
// registers itself with runtime.Register when imported: a program that
// runs JavaScript imports it, as cmd/convfiles does.
//
// js must never import a door (routes, routes/mcp), the sandbox or a
// storage implementation: it reaches files only through the run core.
package js
