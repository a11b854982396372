package routes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// download runs act, which makes the page download a file, and returns
// the bytes downloaded.
func (p browserPage) download(act func()) []byte {
	p.t.Helper()
	dir := p.t.TempDir()
	done := make(chan string, 1)
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	go func() {
		for ev, err := range chromedp.Events(ctx, browser.DownloadProgress) {
			if err != nil {
				return
			}
			if ev.State == browser.DownloadProgressStateCompleted || ev.State == browser.DownloadProgressStateCanceled {
				done <- ev.GUID
				return
			}
		}
	}()
	yes := true
	run(p.t, p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes})
		return err
	}))
	act()
	select {
	case guid := <-done:
		b, err := os.ReadFile(filepath.Join(dir, guid))
		if err != nil {
			p.t.Fatal(err)
		}
		return b
	case <-time.After(30 * time.Second):
		p.t.Fatal("the download did not complete")
		return nil
	}
}

// clickWith clicks what selector finds holding Shift (8) or Ctrl (2).
func (p browserPage) clickWith(selector string, modifiers int) {
	p.t.Helper()
	p.poll("no "+selector, fmt.Sprintf(`!!document.querySelector(%q)`, selector))
	eval[bool](p.t, p.ctx, fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new MouseEvent("click", {bubbles: true, shiftKey: %v, ctrlKey: %v}))`,
		selector, modifiers&8 != 0, modifiers&2 != 0))
}

// selected lists the names of the selected files and folders.
func (p browserPage) selected() []string {
	return eval[[]string](p.t, p.ctx, `Array.from(document.querySelectorAll("#rows tr.selected"), (r) => r.dataset.name || r.dataset.folder + "/")`)
}

// TestBulkActionsInChromium selects files as file managers do (a click,
// Shift-click for a range, Ctrl-click to add or remove one, the keyboard)
// and downloads them as one zip, moves them, copies them and deletes them;
// then drags a file onto a folder and another onto the path above.
func TestBulkActionsInChromium(t *testing.T) {
	const conv = "bulk-1"
	initial := map[string]string{}
	for _, n := range []string{"a.txt", "b.txt", "c.txt", "d.txt", "archive/old.txt"} {
		initial[n] = "content of " + n + "\n"
	}
	p := openConversation(t, conv, initial)
	ctx := p.ctx
	eval[bool](t, ctx, `window.confirm = () => true, true`)
	p.waitRows("the files", "archive/", "a.txt", "b.txt", "c.txt", "d.txt")

	p.clickWith(`#rows tr[data-name="a.txt"] td.c-size`, 0)
	p.clickWith(`#rows tr[data-name="c.txt"] td.c-size`, 8)
	if got := p.selected(); !reflect.DeepEqual(got, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("click then Shift-click selected %q", got)
	}
	p.clickWith(`#rows tr[data-name="b.txt"] td.c-size`, 2)
	p.clickWith(`#rows tr[data-name="d.txt"] input.select`, 0)
	if got := p.selected(); !reflect.DeepEqual(got, []string{"a.txt", "c.txt", "d.txt"}) {
		t.Fatalf("Ctrl-click and a box selected %q", got)
	}
	p.poll("the selection bar", `!document.getElementById("selection-bar").hidden && document.getElementById("selection-count").textContent === "3 items selected"`)

	body := p.download(func() { p.click("#sel-download") })
	want := map[string]string{"a.txt": "content of a.txt\n", "c.txt": "content of c.txt\n", "d.txt": "content of d.txt\n"}
	if got := zipEntries(t, body); !reflect.DeepEqual(got, want) {
		t.Errorf("the zip holds %v, want %v", got, want)
	}

	p.click("#sel-move")
	p.answer("archive")
	p.waitRows("three files moved", "archive/", "b.txt")
	if got := p.names(conv); !reflect.DeepEqual(got, []string{"archive/a.txt", "archive/c.txt", "archive/d.txt", "archive/old.txt", "b.txt"}) {
		t.Errorf("after the move the conversation holds %q", got)
	}

	// The keyboard: Space selects, Shift+ArrowDown extends, Ctrl+A takes all.
	p.doubleClick(`#rows tr[data-folder="archive"]`)
	p.waitRows("inside archive", "archive/a.txt", "archive/c.txt", "archive/d.txt", "archive/old.txt")
	p.press(`#rows tr[data-name="archive/a.txt"]`, " ")
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(0)))
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(8))) // Shift
	if got := p.selected(); !reflect.DeepEqual(got, []string{"archive/a.txt", "archive/c.txt", "archive/d.txt"}) {
		t.Errorf("Space and Shift+ArrowDown selected %q", got)
	}
	p.click("#sel-copy")
	p.answer("")
	p.poll("the copies made", `document.getElementById("message").textContent === "Copied 3 items"`)
	p.click(`#crumbs a:first-child`)
	p.waitRows("three copies at the top", "archive/", "a.txt", "b.txt", "c.txt", "d.txt")
	p.doubleClick(`#rows tr[data-folder="archive"]`)
	p.waitRows("inside archive again", "archive/a.txt", "archive/c.txt", "archive/d.txt", "archive/old.txt")
	p.press(`#rows tr[data-name="archive/a.txt"]`, "a")
	run(t, ctx, chromedp.KeyEvent("a", chromedp.KeyModifiers(2))) // Ctrl+A
	p.poll("Ctrl+A selects every row", `document.querySelectorAll("#rows tr.selected").length === 4`)
	p.click("#sel-delete")
	p.waitRows("the folder emptied", []string{}...)
	p.click(`#crumbs a:first-child`)
	p.waitRows("the top without archive", "a.txt", "b.txt", "c.txt", "d.txt")
	checkDragToMove(p, conv)
}

// checkDragToMove drags a file onto a folder's row, and a folder's file
// onto the path above it, as a hand does: dragstart, dragover, drop.
func checkDragToMove(p browserPage, conv string) {
	t := p.t
	t.Helper()
	run(t, p.ctx, chromedp.Click(chromedp.ID("new-folder")))
	p.answer("inbox")
	p.waitRows("a new folder", "inbox/", "a.txt", "b.txt", "c.txt", "d.txt")
	drag := func(from, onto string) {
		eval[bool](t, p.ctx, fmt.Sprintf(`(() => {
			const dt = new DataTransfer(), src = document.querySelector(%q), dst = document.querySelector(%q);
			src.dispatchEvent(new DragEvent("dragstart", {bubbles: true, dataTransfer: dt}));
			const over = new DragEvent("dragover", {bubbles: true, cancelable: true, dataTransfer: dt});
			dst.dispatchEvent(over);
			if (!over.defaultPrevented) throw new Error("the folder does not take the drop");
			dst.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
			return true
		})()`, from, onto))
	}
	drag(`#rows tr[data-name="b.txt"]`, `#rows tr[data-folder="inbox"]`)
	p.waitRows("a file dragged onto a folder", "inbox/", "a.txt", "c.txt", "d.txt")
	p.doubleClick(`#rows tr[data-folder="inbox"]`)
	p.waitRows("inside inbox", "inbox/b.txt")
	drag(`#rows tr[data-name="inbox/b.txt"]`, `#crumbs a:first-child`)
	p.waitRows("the file dragged out onto the path", []string{}...)
	names := p.names(conv)
	sort.Strings(names)
	if want := []string{"a.txt", "b.txt", "c.txt", "d.txt", "inbox/.keep"}; !reflect.DeepEqual(names, want) {
		t.Errorf("after the drags the conversation holds %q, want %q", names, want)
	}

	// A folder and a file copied beside themselves.
	p.click(`#crumbs a:first-child`)
	p.waitRows("the top again", "inbox/", "a.txt", "b.txt", "c.txt", "d.txt")
	p.clickWith(`#rows tr[data-folder="inbox"] td.c-size`, 0)
	p.clickWith(`#rows tr[data-name="a.txt"] td.c-size`, 2)
	p.click("#sel-copy")
	p.answer("")
	p.waitRows("the copies", "inbox/", "inbox copy/", "a copy.txt", "a.txt", "b.txt", "c.txt", "d.txt")
}
