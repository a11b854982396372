package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFrontPageIsAFrontPage: the README starts with the two set-up
// commands and stays short enough to read; the reference is in docs/.
func TestFrontPageIsAFrontPage(t *testing.T) {
	readme := Page(t, "README.md")
	if len(readme) > 15<<10 {
		t.Errorf("the README is %d bytes: the reference belongs in docs/, the front page in 15 KiB", len(readme))
	}
	head := strings.Join(strings.SplitN(readme, "\n", 10)[:9], "\n")
	for _, command := range []string{"go run ./cmd/convfiles serve", "go test ./..."} {
		if !strings.Contains(head, command) {
			t.Errorf("the README's first lines lack %q", command)
		}
	}
}

// TestEveryPageIsListedWithItsContents: every page of docs/ is read by
// the tests (Files) and listed in docs/README.md, and opens with a
// contents list linking each of its sections.
func TestEveryPageIsListedWithItsContents(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	index := Page(t, "docs/README.md")
	for _, p := range pages {
		name := "docs/" + filepath.Base(p)
		if name == "docs/README.md" {
			continue
		}
		if !slices.Contains(Files, name) {
			t.Errorf("%s is not in Files: its examples would run in no test", name)
		}
		if !strings.Contains(index, "("+filepath.Base(p)+")") {
			t.Errorf("docs/README.md does not list %s", name)
		}
		page := Page(t, name)
		contents, _, ok := strings.Cut(page, "\n## ")
		if !strings.Contains(contents, "**Contents**") || !ok {
			t.Errorf("%s opens with no contents list", name)
			continue
		}
		for _, h := range headings(page) {
			if strings.HasPrefix(h, "## ") && !strings.Contains(contents, "(#"+anchor(h)+")") {
				t.Errorf("%s: the contents list lacks %q", name, h)
			}
		}
	}
}

// TestLinksLeadSomewhere: every link between the pages names a file
// that exists and, after #, a heading of it.
func TestLinksLeadSomewhere(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, name := range append(slices.Clone(Files), "docs/README.md") {
		for _, m := range link.FindAllStringSubmatch(Page(t, name), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, filepath.Dir(name), file)
			if file == "" {
				path = filepath.Join(root, name)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which does not exist", name, target)
				continue
			}
			if frag == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			rel, _ := filepath.Rel(root, path)
			found := false
			for _, h := range headings(Page(t, filepath.ToSlash(rel))) {
				found = found || anchor(h) == frag
			}
			if !found {
				t.Errorf("%s links to %s, which has no heading #%s", name, file, frag)
			}
		}
	}
}

var fence = regexp.MustCompile("^```\\w*$")

// headings are a page's heading lines, outside code blocks.
func headings(page string) []string {
	var out []string
	inCode := false
	for _, l := range strings.Split(page, "\n") {
		if fence.MatchString(l) {
			inCode = !inCode
			continue
		}
		if !inCode && strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// anchor is a heading's anchor as GitHub makes it.
func anchor(heading string) string {
	s := strings.ToLower(strings.TrimSpace(strings.TrimLeft(heading, "#")))
	s = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`).ReplaceAllString(s, "")
	return strings.ReplaceAll(s, " ", "-")
}
