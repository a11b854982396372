// Package docs reads convfiles' documentation for the tests that run its
// examples and check what it says: the README (the front page) and the
// reference in docs/, in reading order, as one text. A test that runs
// "every example" runs those of every page, wherever an example moves.
//
// It must never import another convfiles package.
package docs

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Files are the pages, from the module's root, in reading order.
var Files = []string{
	"README.md",
	"docs/scripts.md",
	"docs/rest.md",
	"docs/web.md",
	"docs/mcp.md",
	"docs/cli.md",
	"docs/configuration.md",
	"docs/security.md",
	"docs/hosted.md",
	"docs/replicas.md",
	"docs/compatibility.md",
	"docs/architecture.md",
	"docs/troubleshooting.md",
}

// Block is one fenced code block: its language and its text.
type Block struct {
	Lang, Body string
}

// Root is the module's root: the nearest folder above the working one
// (a test runs in its package's folder) that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working folder")
		}
		dir = parent
	}
}

// Page is one page's text, by its path in Files.
func Page(t testing.TB, name string) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Text is every page, in reading order.
func Text(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	for _, name := range Files {
		b.WriteString(Page(t, name))
		b.WriteString("\n")
	}
	return b.String()
}

var fenced = regexp.MustCompile("(?ms)^```(\\w*)\n(.*?)^```")

// Blocks are the fenced code blocks of every page, in reading order.
func Blocks(t testing.TB) []Block {
	t.Helper()
	var out []Block
	for _, m := range fenced.FindAllStringSubmatch(Text(t), -1) {
		out = append(out, Block{m[1], m[2]})
	}
	return out
}

// Section is the text from the line start (a heading) up to the line
// end, or to the end of start's page when end is "".
func Section(t testing.TB, start, end string) string {
	t.Helper()
	for _, name := range Files {
		page := Page(t, name)
		i := strings.Index(page, "\n"+start+"\n")
		if i < 0 {
			continue
		}
		section := page[i+1:]
		if end == "" {
			return section
		}
		j := strings.Index(section, "\n"+end+"\n")
		if j < 0 {
			t.Fatalf("%s has no %q after %q", name, end, start)
		}
		return section[:j+1]
	}
	t.Fatalf("no page has the heading %q", start)
	return ""
}
