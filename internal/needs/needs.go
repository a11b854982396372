// Package needs lets a test say what it needs from the machine beyond Go:
// a server (PostgreSQL, the S3 gateway), a browser, an office suite, Node,
// root. On a machine without it the test skips with one line naming what
// to install, so that `go test ./...` passes on a machine with Go alone;
// with CONVFILES_REQUIRE naming it (CI sets CONVFILES_REQUIRE=all) the same
// test fails instead, so nothing is skipped where everything is installed.
//
// It must never import another convfiles package.
package needs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// RequireVariable names the environment variable that turns skips into
// failures: a comma-separated list of Thing names, or "all".
const RequireVariable = "CONVFILES_REQUIRE"

// Thing is something a test needs that Go does not bring.
type Thing struct {
	// Name is the short name CONVFILES_REQUIRE lists.
	Name string
	// What says what it is, as a skip or a failure names it.
	What string
	// Install is the command that installs it on Debian or Ubuntu.
	Install string
}

// The things convfiles' tests need beyond Go.
var (
	PostgreSQL  = Thing{"postgres", "PostgreSQL's server (initdb, postgres)", "apt-get install postgresql"}
	S3          = Thing{"s3", "an S3 server (versitygw)", "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"}
	Chromium    = Thing{"chromium", "Chromium", "apt-get install chromium"}
	LibreOffice = Thing{"libreoffice", "LibreOffice (soffice)", "apt-get install libreoffice-calc"}
	Poppler     = Thing{"poppler", "poppler's pdftotext", "apt-get install poppler-utils"}
	Node        = Thing{"node", "Node.js with the MCP client of routes/mcp/testdata/interop", "apt-get install nodejs npm && (cd routes/mcp/testdata/interop && npm ci)"}
	Root        = Thing{"root", "root, to mount a small disk", "run the tests as root (sudo -E go test ./cmd/convfiles)"}
	Patch       = Thing{"patch", "GNU patch", "apt-get install patch"}
)

// All lists every Thing, in the order the README names them.
var All = []Thing{PostgreSQL, S3, Chromium, LibreOffice, Poppler, Node, Root, Patch}

// Required reports whether CONVFILES_REQUIRE asks for thing.
func Required(thing Thing) bool {
	for _, name := range strings.Split(os.Getenv(RequireVariable), ",") {
		name = strings.TrimSpace(name)
		if name == "all" || name == thing.Name {
			return true
		}
	}
	return false
}

// Missing ends the test because the machine lacks thing (why says how
// that was found): a skip naming what to install, or, when
// CONVFILES_REQUIRE asks for it, a failure.
func Missing(t testing.TB, thing Thing, why error) {
	t.Helper()
	if Required(thing) {
		t.Fatalf("this test needs %s, which %s=%s requires: %v; install it with: %s",
			thing.What, RequireVariable, os.Getenv(RequireVariable), why, thing.Install)
	}
	announce(thing)
	t.Skipf("skipped: needs %s (%v); install it with: %s", thing.What, why, thing.Install)
}

// Program returns the path of the first of names found on PATH; without
// any it ends the test as Missing does.
func Program(t testing.TB, thing Thing, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(t, thing, fmt.Errorf("no %s on PATH", strings.Join(names, " or ")))
	return ""
}

var (
	announceMu sync.Mutex
	announced  []string
	terminal   = "/dev/tty" // where announce writes; "" for nowhere
)

// announce tells a person running the tests at a terminal, once per test
// binary and thing, what was skipped: go test shows a passing package's
// output only with -v, and a skipped suite should not pass unnoticed.
// Without a terminal (CI, an editor) there is nobody to tell.
func announce(thing Thing) {
	announceMu.Lock()
	defer announceMu.Unlock()
	if slices.Contains(announced, thing.Name) {
		return
	}
	announced = append(announced, thing.Name)
	if terminal == "" {
		return
	}
	tty, err := os.OpenFile(terminal, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	fmt.Fprintf(tty, "skipped in %s: tests that need %s (install: %s)\n", packageDir(), thing.What, thing.Install)
}

// packageDir is the test's package folder from the module's root: go
// test runs a test binary in its package's folder.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "this package"
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if rel, err := filepath.Rel(dir, wd); err == nil {
				return "./" + filepath.ToSlash(rel)
			}
			return wd
		}
		if filepath.Dir(dir) == dir {
			return wd
		}
	}
}
