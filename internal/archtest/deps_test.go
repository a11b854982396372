package archtest

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "convfiles"

// rules lists, for each package, the convfiles packages and outside
// packages it must not import, directly or through others.
var rules = map[string]struct {
	mayImport []string // convfiles packages allowed (prefixes)
	mustNot   []string // outside packages forbidden, directly or not (exact or prefix + "/")
	ownNot    []string // outside packages the package itself must not import
}{
	"content": {mayImport: []string{"internal/bytesize", "internal/textdiff"}},
	// the format helpers work on bytes: no files, no doors.
	"content/images":      {mayImport: []string{"content", "internal/bytesize", "internal/textdiff"}},
	"content/pdfs":        {mayImport: []string{"content", "internal/bytesize", "internal/textdiff"}},
	"content/spreadsheet": {mayImport: []string{"content", "internal/bytesize", "internal/textdiff"}},
	// formats applies the helpers to a Space's files for both doors.
	"formats": {mayImport: []string{"files", "content", "internal/bytesize", "internal/textdiff"}, ownNot: []string{"net/http"}},
	// ops is the one table of operations every door adapts: it speaks no
	// HTTP (the PDF library links it), knows no SQL and no script engine.
	"ops": {mayImport: []string{"files", "content", "formats", "auth", "internal/bytesize", "internal/textdiff", "internal/signing", "internal/textdiff"},
		ownNot: []string{"net/http"}, mustNot: []string{"database/sql", "github.com/dop251/goja"}},
	"prompts": {},
	// auth says who is asking: credentials, scopes, tokens. It speaks no
	// HTTP (auth/idp fetches an identity provider's keys) and knows no SQL.
	"auth":     {mayImport: []string{"files", "internal/bytesize", "internal/textdiff", "internal/signing"}, mustNot: []string{"net/http", "database/sql"}},
	"auth/idp": {mayImport: []string{"auth", "files", "internal/bytesize", "internal/textdiff", "internal/signing"}, mustNot: []string{"database/sql"}},
	// internal/textdiff writes unified diffs of two texts.
	"internal/textdiff": {},
	// internal/peakrss reads the process's peak memory for benchmarks.
	"internal/peakrss": {},
	// files/sqlite implements the index that files declares.
	"files/sqlite": {mayImport: []string{"files", "auth", "internal/bytesize", "internal/textdiff", "internal/signing"}, mustNot: []string{"net/http", "github.com/dop251/goja"}},
	// files/postgres implements the same index in PostgreSQL, for replicas.
	"files/postgres": {mayImport: []string{"files", "auth", "internal/bytesize", "internal/textdiff", "internal/signing"}, mustNot: []string{"net/http", "github.com/dop251/goja", "modernc.org/sqlite"}},
	// files/s3blobs keeps the bytes in an S3-compatible object store.
	"files/s3blobs": {mayImport: []string{"files", "internal/bytesize", "internal/textdiff", "internal/lru"}, mustNot: []string{"database/sql", "github.com/dop251/goja", "modernc.org/sqlite"}},
	// internal/pgserver and internal/s3server start throwaway servers for
	// tests and benchmarks; nothing that ships imports them.
	"internal/pgserver":   {mayImport: []string{"internal/testserver", "internal/needs"}},
	"internal/s3server":   {mayImport: []string{"internal/testserver", "internal/needs"}},
	"internal/testserver": {},
	// internal/lru is a size-bounded cache, least recently used first.
	"internal/lru": {},
	// internal/needs skips a test, naming what to install, on a machine
	// without what it needs.
	"internal/needs": {},
	// files/filestest is the conformance suite every store runs.
	"files/filestest": {mayImport: []string{"files", "internal/bytesize", "internal/textdiff"}, mustNot: []string{"net/http", "database/sql"}},
	// files/blobtest and files/indextest are the conformance suites of the
	// storage seam's two halves: they see only the interfaces.
	"files/blobtest":  {mayImport: []string{"files", "internal/bytesize", "internal/textdiff"}, ownNot: []string{"os"}, mustNot: []string{"net/http", "database/sql"}},
	"files/indextest": {mayImport: []string{"files", "auth", "internal/bytesize", "internal/textdiff", "internal/signing"}, ownNot: []string{"os"}, mustNot: []string{"net/http", "database/sql"}},
	"files":           {mayImport: []string{"internal/bytesize", "internal/textdiff"}, mustNot: []string{"net/http", "database/sql", "github.com/dop251/goja", "modernc.org/sqlite"}},
	// esbuild's API package links net/http for its dev server; the runtime
	// itself speaks no HTTP.
	"runtime": {mayImport: []string{"files", "content", "formats", "ops", "auth", "prompts", "runtime/lint", "internal/bytesize", "internal/textdiff", "internal/signing"}, ownNot: []string{"net/http"}},
	// runtime/lint runs ESLint's rules in goja: no files, no doors.
	"runtime/lint": {ownNot: []string{"net/http", "os"}},
	// runtime/lint/genbundle rebuilds ESLint's bundle (go generate).
	"runtime/lint/genbundle": {},
	"routes":                 {mayImport: []string{"files", "content", "formats", "ops", "auth", "runtime", "prompts", "internal/bytesize", "internal/textdiff", "internal/links", "internal/signing", "internal/metrics", "internal/lru"}},
	// sandbox runs the runtime and formats in worker processes and serves
	// their file operations: it speaks no HTTP and knows no SQL.
	"sandbox": {mayImport: []string{"files", "content", "formats", "ops", "auth", "runtime", "prompts", "internal/bytesize", "internal/textdiff", "internal/links", "internal/signing"},
		ownNot: []string{"net/http"}, mustNot: []string{"modernc.org/sqlite"}},
	// routes and routes/mcp are two doors over the same packages: neither
	// imports the other.
	"routes/mcp":    {mayImport: []string{"files", "content", "formats", "ops", "auth", "runtime", "prompts", "internal/bytesize", "internal/textdiff", "internal/signing"}, mustNot: []string{"modernc.org/sqlite"}},
	"cmd/convfiles": {mayImport: []string{""}},
}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// TestDependencyRules fails when a package imports one it must not.
func TestDependencyRules(t *testing.T) {
	touchSources(t)
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := map[string]bool{}
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		seen[rel] = true
		rule, ok := rules[rel]
		if !ok {
			if !strings.HasPrefix(rel, "internal/") {
				t.Errorf("package %s has no dependency rule: add one", p.ImportPath)
			}
			continue
		}
		for _, d := range p.Imports {
			for _, bad := range rule.ownNot {
				if d == bad || strings.HasPrefix(d, bad+"/") {
					t.Errorf("%s imports %s, which DESIGN.md forbids", rel, d)
				}
			}
		}
		for _, d := range p.Deps {
			if d == module || strings.HasPrefix(d, module+"/") {
				dr := strings.TrimPrefix(strings.TrimPrefix(d, module), "/")
				if !allowed(dr, rule.mayImport) {
					t.Errorf("%s imports %s, which DESIGN.md forbids", rel, dr)
				}
				continue
			}
			for _, bad := range rule.mustNot {
				// database/sql/driver holds only interfaces, which google/uuid
				// implements; a SQL driver or database/sql itself is forbidden.
				if d == "database/sql/driver" {
					continue
				}
				if d == bad || strings.HasPrefix(d, bad+"/") {
					t.Errorf("%s depends on %s, which DESIGN.md forbids", rel, d)
				}
			}
		}
	}
	for want := range rules {
		if !seen[want] {
			t.Errorf("package %s is missing", want)
		}
	}
}

func allowed(dep string, prefixes []string) bool {
	for _, p := range prefixes {
		if p == "" || dep == p || strings.HasPrefix(dep, p+"/") {
			return true
		}
	}
	return false
}

// touchSources reads every Go file of the module. go test caches results
// keyed on the files a test opens; go list runs in another process, so
// without this a changed import would be judged by a stale cached result.
func touchSources(t *testing.T) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(strings.TrimSpace(string(root)), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod") {
			os.ReadFile(p)
		}
		return nil
	})
}
