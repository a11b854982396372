package archtest

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "convfiles"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// TestDependencyRules fails when a package imports one it must not.
func TestDependencyRules(t *testing.T) {
	for _, v := range check(listPackages(t), rules) {
		t.Error(v)
	}
}

// TestTheRulesCatchAViolation breaks each rule the renovation added, one
// at a time, in a copy of the real graph: a storage implementation that
// imports auth or a peer, the domain that imports the engine, the driver
// that speaks SQL, the run core that knows an interpreter. The check must
// name each.
func TestTheRulesCatchAViolation(t *testing.T) {
	real := listPackages(t)
	if v := check(real, rules); len(v) != 0 {
		t.Fatalf("the real graph already breaks the rules: %v", v)
	}
	for _, c := range []struct{ from, to, want string }{
		{"sqlite", module + "/auth", "sqlite imports auth"},
		{"postgres", module + "/sqlite", "postgres imports sqlite"},
		{"s3blobs", module + "/engine", "s3blobs imports engine"},
		{"files", module + "/engine", "files imports engine"},
		{"files/driver", "database/sql", "files/driver depends on database/sql"},
		{"engine", module + "/sqlite", "engine imports sqlite"},
		{"routes/mcp", module + "/routes", "routes/mcp imports routes"},
		{"runtime", "github.com/dop251/goja", "runtime depends on github.com/dop251/goja"},
		{"runtime", module + "/runtime/lua", "runtime imports runtime/lua"},
	} {
		broken := withDep(real, c.from, c.to)
		v := check(broken, rules)
		if !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, c.want) }) {
			t.Errorf("%s → %s: the check said %q, want a line starting %q", c.from, c.to, v, c.want)
		}
	}
}

// withDep is a copy of pkgs in which the package from also depends on to.
func withDep(pkgs []pkg, from, to string) []pkg {
	out := make([]pkg, len(pkgs))
	for i, p := range pkgs {
		out[i] = p
		if p.ImportPath == module+"/"+from {
			out[i].Imports = append(slices.Clone(p.Imports), to)
			out[i].Deps = append(slices.Clone(p.Deps), to)
		}
	}
	return out
}

// check lists every way pkgs break rules, one line each.
func check(pkgs []pkg, rules map[string]rule) []string {
	var v []string
	seen := map[string]bool{}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		seen[rel] = true
		r, ok := rules[rel]
		if !ok {
			v = append(v, "package "+p.ImportPath+" has no dependency rule: add one")
			continue
		}
		for _, d := range p.Imports {
			if slices.ContainsFunc(r.ownNot, func(bad string) bool { return d == bad || strings.HasPrefix(d, bad+"/") }) {
				v = append(v, rel+" imports "+d+" itself, which DESIGN.md forbids")
			}
		}
		for _, d := range p.Deps {
			if d == module || strings.HasPrefix(d, module+"/") {
				dr := strings.TrimPrefix(strings.TrimPrefix(d, module), "/")
				if !allowed(dr, r.mayImport) {
					v = append(v, rel+" imports "+dr+", which DESIGN.md forbids")
				}
				continue
			}
			// database/sql/driver holds only interfaces, which google/uuid
			// implements; a SQL driver or database/sql itself is forbidden.
			if d == "database/sql/driver" {
				continue
			}
			if slices.ContainsFunc(r.mustNot, func(bad string) bool { return d == bad || strings.HasPrefix(d, bad+"/") }) {
				v = append(v, rel+" depends on "+d+", which DESIGN.md forbids")
			}
		}
	}
	for want := range rules {
		if !seen[want] {
			v = append(v, "package "+want+" is missing")
		}
	}
	return v
}

// allowed reports whether dep is one of entries: a package, or a tree
// ("x/..." is x and every package below it; "..." is every package).
func allowed(dep string, entries []string) bool {
	for _, e := range entries {
		tree, isTree := strings.CutSuffix(e, "/...")
		switch {
		case e == "...", dep == e:
			return true
		case isTree && (dep == tree || strings.HasPrefix(dep, tree+"/")):
			return true
		}
	}
	return false
}

// listPackages asks go list for every package of the module.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	touchSources(t)
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkg
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
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
