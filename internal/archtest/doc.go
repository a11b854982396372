// Package archtest holds the test that keeps convfiles' package boundaries
// (DESIGN.md "Architecture"): dependencies point inward, and only
// cmd/convfiles knows every package.
package archtest
