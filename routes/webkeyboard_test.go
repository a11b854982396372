package routes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/internal/storetest"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tabTo presses Tab until the focus is on what selector finds.
func (p browserPage) tabTo(selector string) {
	p.t.Helper()
	for range 400 {
		if eval[bool](p.t, p.ctx, fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, selector)) {
			return
		}
		run(p.t, p.ctx, chromedp.KeyEvent(kb.Tab))
	}
	p.t.Fatalf("Tab never reaches %s", selector)
}

// chooseFiles makes the next file chooser the page opens, by whatever
// means, take paths instead of showing a dialog.
func (p browserPage) chooseFiles(paths ...string) {
	p.t.Helper()
	ctx, cancel := context.WithCancel(p.ctx)
	go func() {
		defer cancel()
		for ev, err := range chromedp.Events(ctx, page.FileChooserOpened) {
			if err != nil {
				return
			}
			chromedp.Run(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, BackendNodeID: ev.BackendNodeID})
				return err
			}))
			return
		}
	}()
	run(p.t, p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true})
		return err
	}))
}

// acceptDialogs answers every confirm() of the page with OK, as Enter on
// the browser's own dialog does.
func (p browserPage) acceptDialogs() {
	go func() {
		for _, err := range chromedp.Events(p.ctx, page.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			go chromedp.Run(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
				return err
			}))
		}
	}()
}

// TestKeyboardAloneInChromium uploads, renames, deletes and restores a
// file with the keyboard alone: Tab to a control, Enter or a key on a row.
func TestKeyboardAloneInChromium(t *testing.T) {
	const conv = "keys-1"
	p := openConversation(t, conv, map[string]string{"first.txt": "first\n"})
	ctx := p.ctx
	p.waitRows("the file", "first.txt")
	p.acceptDialogs()

	local := filepath.Join(t.TempDir(), "typed.txt")
	if err := os.WriteFile(local, []byte("typed by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.chooseFiles(local)
	p.tabTo("#upload-files")
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	p.waitRows("uploaded by keyboard", "first.txt", "typed.txt")

	p.tabTo(`#rows tr[data-name="typed.txt"]`)
	run(t, ctx, chromedp.KeyEvent(kb.F2))
	p.poll("F2 opens the name dialog", `document.getElementById("ask").open && document.activeElement.id === "ask-input"`)
	run(t, ctx, chromedp.KeyEvent("renamed.txt"), chromedp.KeyEvent(kb.Enter))
	p.waitRows("renamed by keyboard", "first.txt", "renamed.txt")

	p.tabTo(`#rows tr[data-name="renamed.txt"]`)
	run(t, ctx, chromedp.KeyEvent(kb.Delete))
	p.waitRows("deleted by keyboard", "first.txt")

	p.tabTo("#show-deleted")
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	p.tabTo(`#deleted-rows tr[data-name="renamed.txt"] button.restore`)
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	p.waitRows("restored by keyboard", "first.txt", "renamed.txt")
	if got := p.names(conv); !reflect.DeepEqual(got, []string{"first.txt", "renamed.txt"}) {
		t.Errorf("the conversation holds %q", got)
	}
}

// TestFolderUploadEditAndPagesInChromium uploads a whole folder through
// the folder picker, keeping its structure; edits a text file in place
// while a script writes it (the edit is refused and kept, the script's
// text stays, then the user replaces it, the script's kept as a version);
// and reaches every file of a folder of 1,200 through its pages.
func TestFolderUploadEditAndPagesInChromium(t *testing.T) {
	const conv = "manage-1"
	p := openConversation(t, conv, map[string]string{"notes.txt": "first draft\n"})
	p.waitRows("the file", "notes.txt")

	dir := filepath.Join(t.TempDir(), "photos")
	for name, text := range map[string]string{"a.txt": "a\n", "trip/b.txt": "b\n", "trip/day 2/c.txt": "c\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	p.chooseFiles(dir)
	p.click("#upload-folder")
	p.waitRows("the uploaded folder", "photos/", "notes.txt")
	if got, want := p.names(conv), []string{"notes.txt", "photos/a.txt", "photos/trip/b.txt", "photos/trip/day 2/c.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the folder upload the conversation holds %q, want %q", got, want)
	}

	checkEditRace(p, conv)
	checkPages(p)
}

func checkEditRace(p browserPage, conv string) {
	t, ctx := p.t, p.ctx
	t.Helper()
	p.click(`#rows tr[data-name="notes.txt"] button.open`)
	p.click(`#panel-body button.edit`)
	p.poll("the editor", `document.getElementById("editor") && document.getElementById("editor").value === "first draft\n"`)
	p.checkAxe("the editor", axeSource(t))
	set := func(text string) {
		run(t, ctx, chromedp.SetValue(chromedp.ID("editor"), text))
	}
	set("second draft\n")
	p.click("#edit-save")
	p.poll("saved", `document.getElementById("edit-status").textContent.startsWith("Saved as version 2")`)
	set("third draft\n")
	p.click("#edit-save")
	p.poll("saved again", `document.getElementById("edit-status").textContent.startsWith("Saved as version 3")`)

	// A script writes while the user types: the save is refused, nothing
	// of either is lost.
	storetest.Put(t, p.e.store, conv, "notes.txt", []byte("the script's text\n"))
	set("my fourth draft\n")
	p.click("#edit-save")
	p.poll("the conflict told", `document.getElementById("edit-status").className === "error" && document.getElementById("edit-status").textContent.includes("version 4")`)
	if got := eval[string](t, ctx, `document.getElementById("editor").value`); got != "my fourth draft\n" {
		t.Errorf("the editor lost the user's text: %q", got)
	}
	read := func() string {
		_, body := p.e.get("/files/" + conv + "/notes.txt")
		return string(body)
	}
	if got := read(); got != "the script's text\n" {
		t.Fatalf("the refused save overwrote the script's write: %q", got)
	}
	eval[bool](t, ctx, `document.getElementById("message").textContent = "", true`)
	p.click("#edit-replace")
	p.poll("replaced", `document.getElementById("message").textContent === "Saved notes.txt"`)
	if got := read(); got != "my fourth draft\n" {
		t.Errorf("replacing gave %q", got)
	}
	sp, _ := p.e.store.Space(conv)
	defer sp.Close()
	versions, err := sp.Versions(context.Background(), "notes.txt")
	if err != nil || !slices.ContainsFunc(versions, func(v files.Version) bool { return v.Version == 4 }) {
		t.Errorf("the script's text is not kept as version 4: %+v, %v", versions, err)
	}
	p.click("#panel-close")
}

// checkPages writes 1,200 files in one folder and visits every page.
func checkPages(p browserPage) {
	t, ctx := p.t, p.ctx
	t.Helper()
	const n = 1200
	sp, _ := p.e.store.Space("pages-1")
	for i := range n {
		if _, err := sp.WriteBytes(context.Background(), fmt.Sprintf("big/file-%04d.txt", i), []byte("x"), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	sp.Close()
	run(t, ctx, chromedp.Navigate(p.e.srv.URL+"/#c=pages-1&f=big"))
	seen := map[string]bool{}
	for page, want := range []string{"1–500 of 1,200 files", "501–1,000 of 1,200 files", "1,001–1,200 of 1,200 files"} {
		p.poll("page "+want, `document.getElementById("page-info").textContent === "`+want+`" && !document.getElementById("pager").hidden && document.querySelectorAll("#rows tr").length === `+fmt.Sprint(min(500, n-page*500)))
		names := p.rowNames()
		for _, name := range names {
			seen[name] = true
		}
		if first, want := names[0], fmt.Sprintf("big/file-%04d.txt", page*500); first != want {
			t.Errorf("page %d begins with %s, want %s", page+1, first, want)
		}
		if page < 2 {
			p.click("#page-next")
		}
	}
	if len(seen) != n {
		t.Errorf("the pages show %d different files of %d", len(seen), n)
	}
	if !eval[bool](t, ctx, `document.getElementById("page-next").disabled`) {
		t.Error("the last page offers a next one")
	}
	if got := eval[string](t, ctx, `document.querySelector('#conv-items a[aria-current="page"] small').textContent`); !strings.HasPrefix(got, "1,200 files") {
		t.Errorf("the conversation list says %q", got)
	}
}
