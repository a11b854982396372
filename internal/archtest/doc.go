// Package archtest holds the test that keeps convfiles' package boundaries
// (DESIGN.md "Architecture"): dependencies point inward, and only
// cmd/convfiles knows every package.
//
// It imports no convfiles package: it reads the graph from go list.
package archtest
