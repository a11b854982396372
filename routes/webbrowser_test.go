package routes

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/storetest"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFileBrowserInChromium drives the file browser as a person would:
// the list view with folders first and sortable columns, opening folders
// and climbing back by the path, search as you type (a substring in any
// letter case, a glob with *), new, renamed and deleted folders, a file
// renamed and moved, Markdown shown as a document with nothing of it run,
// a deleted file found again by name and restored, the card view, the
// keyboard, and a layout that fits 390 px and 1280 px (screenshots of
// both go to the artifacts).
func TestFileBrowserInChromium(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "browse-1"
	put := func(name, text string) { storetest.Put(t, e.store, conv, name, []byte(text)) }
	put("zeta.csv", "region,total\n"+strings.Repeat("north,12\n", 40))
	put("alpha.txt", "alpha\n")
	put("Budget Summary.txt", strings.Repeat("budget line\n", 10))
	put("file10.txt", "ten\n")
	put("file2.txt", "two\n")
	put("reports/q1.csv", strings.Repeat("q1,1\n", 500))
	put("reports/2025/deep.txt", "deep\n")
	put("notes/summary.md", "# Quarterly summary\n\nRevenue **grew** in *every* region: see [the numbers](../reports/q1.csv),\n"+
		"[a trap](javascript:document.body.dataset.pwned='link') and [away](../../../api/conversations).\n\n"+
		"<script>document.body.dataset.pwned = 'script'</script>\n<img src=x onerror=\"document.body.dataset.pwned='img'\">\n\n"+
		"- north: 12\n- south: 30\n\n| region | total |\n|---|---|\n| north | 12 |\n\n```\n<b>code stays text</b>\n```\n")
	ctx := newBrowser(t)
	p := browserPage{t: t, ctx: ctx, e: e}
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/#c="+conv), chromedp.WaitVisible(chromedp.ID("rows")))
	eval[bool](t, ctx, `window.confirm = () => true, true`)

	// The list: folders first, then files by name as people read them
	// (letters in either case together, file2 before file10).
	p.waitRows("the list by name", "notes/", "reports/", "alpha.txt", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")
	if got := eval[string](t, ctx, `document.querySelector('#rows tr[data-folder="reports"] .c-size').textContent`); got != "2.4 KiB" {
		t.Errorf("the reports folder shows %q, want its files' total 2.4 KiB", got)
	}

	// Sorting by a column, then the other way by a second click.
	p.click(`#list th button[data-sort="size"]`)
	p.waitRows("the list by size", "notes/", "reports/", "file2.txt", "file10.txt", "alpha.txt", "Budget Summary.txt", "zeta.csv")
	p.click(`#list th button[data-sort="size"]`)
	p.waitRows("the list by size, largest first", "reports/", "notes/", "zeta.csv", "Budget Summary.txt", "alpha.txt", "file10.txt", "file2.txt")
	if got := eval[string](t, ctx, `document.querySelector('#list th[data-col="size"]').getAttribute("aria-sort")`); got != "descending" {
		t.Errorf("the size column says it sorts %q", got)
	}
	p.click(`#list th button[data-sort="modified"]`)
	p.waitRows("the list by time", "notes/", "reports/", "zeta.csv", "alpha.txt", "Budget Summary.txt", "file10.txt", "file2.txt")
	p.click(`#list th button[data-sort="name"]`)
	p.waitRows("the list by name again", "notes/", "reports/", "alpha.txt", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")

	// The arrows move from row to row.
	p.press(`#rows tr[data-folder="notes"]`, kb.ArrowDown)
	p.poll("ArrowDown does not move to the next row", `document.activeElement.dataset.folder === "reports"`)
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	p.poll("ArrowDown does not move from a folder to a file", `document.activeElement.dataset.name === "alpha.txt"`)
	run(t, ctx, chromedp.KeyEvent(kb.ArrowUp))
	p.poll("ArrowUp does not move back", `document.activeElement.dataset.folder === "reports"`)

	// Folders open with a double click and with the keyboard; the path
	// above the list climbs back.
	p.doubleClick(`#rows tr[data-folder="reports"]`)
	p.waitRows("inside reports", "reports/2025/", "reports/q1.csv")
	p.poll("the path shows the folder", `document.getElementById("crumbs").textContent === "browse-1/reports"`)
	p.press(`#rows tr[data-folder="reports/2025"]`, kb.Enter)
	p.waitRows("inside reports/2025", "reports/2025/deep.txt")
	p.click(`#crumbs a:first-child`)
	p.waitRows("back at the top", "notes/", "reports/", "alpha.txt", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")

	// Search as you type: a substring in any case, across folders; a
	// glob when the text has *.
	p.search("SUMMARY")
	p.waitRows("a substring search", "Budget Summary.txt", "notes/summary.md")
	p.search("*.csv")
	p.waitRows("a glob search", "reports/q1.csv", "zeta.csv")
	eval[bool](t, ctx, `document.activeElement.blur(), true`)
	run(t, ctx, chromedp.KeyEvent("/"))
	p.poll("/ does not reach the search box", `document.activeElement.id === "search"`)
	p.search("")
	p.waitRows("no search", "notes/", "reports/", "alpha.txt", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")

	checkMarkdown(p)
	checkFolderChanges(p, conv)
	checkRestore(p, conv)

	// The card view shows the same folder, and the choice is kept.
	run(t, ctx, chromedp.Click(chromedp.ID("view-cards")))
	p.poll("the card view", `document.querySelectorAll("#cards > .card.folder").length === 3 && document.querySelectorAll("#cards > .card[data-file]").length === 3 && document.getElementById("list").hidden`)
	run(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("cards")))
	p.poll("the card view after a reload", `document.querySelectorAll("#cards > .card").length > 0`)
	p.screenshot("web-browser-cards-1280.png")
	run(t, ctx, chromedp.Click(chromedp.ID("view-list")))
	p.poll("the list view", `document.querySelectorAll("#rows tr").length > 0`)
	p.screenshot("web-browser-1280.png")
	checkNarrow(p)
	checkHostileMarkdown(p)
	checkUnknownConversation(p)
}

// checkUnknownConversation opens a conversation nobody wrote to (a typo):
// the page says it does not exist, not that it is empty.
func checkUnknownConversation(p browserPage) {
	p.t.Helper()
	run(p.t, p.ctx, chromedp.Navigate(p.e.srv.URL+"/#c=brwose-1"), chromedp.WaitVisible(chromedp.ID("rows")))
	p.poll("a typo'd conversation is not called empty",
		`!document.getElementById("empty").hidden && document.getElementById("empty").textContent.startsWith('There is no conversation \u201cbrwose-1\u201d')`)
}

// checkMarkdown previews a Markdown file: headings, emphasis, lists,
// tables and code as a document; raw HTML as text, nothing run, and only
// links that stay among the conversation's files or the web.
func checkMarkdown(p browserPage) {
	t, ctx := p.t, p.ctx
	t.Helper()
	p.doubleClick(`#rows tr[data-folder="notes"]`)
	p.waitRows("inside notes", "notes/summary.md")
	p.click(`#rows tr[data-name="notes/summary.md"] button.open`)
	p.poll("the Markdown document", `!!document.querySelector("#panel-body .markdown h1")`)
	texts := func(sel string) []string {
		q, _ := json.Marshal(sel)
		return eval[[]string](t, ctx, `Array.from(document.querySelectorAll(`+string(q)+`), (e) => e.textContent)`)
	}
	for sel, want := range map[string][]string{
		"#panel-body .markdown h1":     {"Quarterly summary"},
		"#panel-body .markdown strong": {"grew"},
		"#panel-body .markdown em":     {"every"},
		"#panel-body .markdown li":     {"north: 12", "south: 30"},
		"#panel-body .markdown td":     {"north", "12"},
		"#panel-body .markdown pre":    {"<b>code stays text</b>"},
		"#panel-body .markdown a":      {"the numbers"},
	} {
		if got := texts(sel); !reflect.DeepEqual(got, want) {
			t.Errorf("Markdown %s: %q, want %q", sel, got, want)
		}
	}
	if href := eval[string](t, ctx, `document.querySelector("#panel-body .markdown a").getAttribute("href")`); href != "/files/browse-1/reports/q1.csv" {
		t.Errorf("a relative link leads to %q, not the conversation's file", href)
	}
	if got := eval[string](t, ctx, `[document.querySelectorAll("#panel-body .markdown script, #panel-body .markdown img, #panel-body .markdown b").length, document.body.dataset.pwned || ""].join("|")`); got != "0|" {
		t.Errorf("the Markdown's HTML became elements or ran: %q", got)
	}
	if !strings.Contains(eval[string](t, ctx, `document.querySelector("#panel-body .markdown").textContent`), "<script>document.body.dataset.pwned") {
		t.Error("raw HTML is not shown as text")
	}
	p.click(`#panel-body button.show-source`)
	p.poll("the source view", `!document.querySelector("#panel-body pre.text").hidden && document.querySelector("#panel-body .markdown").hidden`)
	p.click("#panel-close")
	p.click(`#crumbs a:first-child`)
}

// checkFolderChanges makes, renames and deletes a folder, and renames and
// moves a file with the dialog and with F2, checking the store each time.
func checkFolderChanges(p browserPage, conv string) {
	t, ctx := p.t, p.ctx
	t.Helper()
	p.waitRows("the top", "notes/", "reports/", "alpha.txt", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")
	run(t, ctx, chromedp.Click(chromedp.ID("new-folder")))
	p.answer("drafts")
	p.waitRows("a new folder", "drafts/", "notes/", "reports/", "alpha.txt", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")

	// A rename with folders in the new name moves the file.
	p.click(`#rows tr[data-name="alpha.txt"] button.rename`)
	p.answer("drafts/alpha-2.txt")
	p.waitRows("a file moved into a folder", "drafts/", "notes/", "reports/", "Budget Summary.txt", "file2.txt", "file10.txt", "zeta.csv")
	p.press(`#rows tr[data-name="zeta.csv"]`, kb.F2)
	p.answer("omega.csv")
	p.waitRows("a file renamed with F2", "drafts/", "notes/", "reports/", "Budget Summary.txt", "file2.txt", "file10.txt", "omega.csv")

	// A folder renamed takes its files along; a hostile name is refused
	// with the reason and moves nothing.
	p.click(`#rows tr[data-folder="drafts"] button.rename`)
	p.answer("archive/drafts")
	p.waitRows("a folder moved", "archive/", "notes/", "reports/", "Budget Summary.txt", "file2.txt", "file10.txt", "omega.csv")
	p.click(`#rows tr[data-folder="reports"] button.rename`)
	p.answer("../outside")
	p.poll("a hostile folder name is not refused", `document.getElementById("message").className === "error" && document.getElementById("message").textContent.includes("..")`)
	want := []string{"Budget Summary.txt", "archive/drafts/.keep", "archive/drafts/alpha-2.txt", "file10.txt", "file2.txt",
		"notes/summary.md", "omega.csv", "reports/2025/deep.txt", "reports/q1.csv"}
	if got := p.names(conv); !reflect.DeepEqual(got, want) {
		t.Errorf("the conversation holds %q, want %q", got, want)
	}

	p.click(`#rows tr[data-folder="archive"] button.delete`)
	p.waitRows("a folder deleted", "notes/", "reports/", "Budget Summary.txt", "file2.txt", "file10.txt", "omega.csv")
}

// checkRestore deletes a file with the keyboard and finds it again by
// name under Recently deleted, then restores it.
func checkRestore(p browserPage, conv string) {
	t, ctx := p.t, p.ctx
	t.Helper()
	p.press(`#rows tr[data-name="file2.txt"]`, kb.Delete)
	p.waitRows("a file deleted", "notes/", "reports/", "Budget Summary.txt", "file10.txt", "omega.csv")
	run(t, ctx, chromedp.Click(chromedp.ID("show-deleted")))
	p.poll("recently deleted (a made folder's .keep not among them)", `Array.from(document.querySelectorAll("#deleted-rows tr.deleted"), (r) => r.dataset.name).join() === "file2.txt,archive/drafts/alpha-2.txt"`)
	p.search("alpha")
	p.poll("a deleted file found by name", `Array.from(document.querySelectorAll("#deleted-rows tr.deleted"), (r) => r.dataset.name).join() === "archive/drafts/alpha-2.txt"`)
	p.click(`#deleted-rows tr[data-name="archive/drafts/alpha-2.txt"] button.restore`)
	p.poll("the restored file", `document.querySelectorAll("#deleted-rows tr.deleted").length === 0`)
	p.search("")
	p.waitRows("restored", "archive/", "notes/", "reports/", "Budget Summary.txt", "file10.txt", "omega.csv")
	sp, err := p.e.store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if got, _, err := sp.ReadFile(ctx, "archive/drafts/alpha-2.txt", 1<<20); err != nil || string(got) != "alpha\n" {
		t.Errorf("restored %q, %v", got, err)
	}
	run(t, ctx, chromedp.Click(chromedp.ID("show-deleted")))
}

// checkNarrow shows the page at a phone's 390 px: nothing wider than the
// screen, the list without its type and time columns, and each file's
// rename and delete still at hand.
func checkNarrow(p browserPage) {
	t, ctx := p.t, p.ctx
	t.Helper()
	run(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	p.poll("the narrow layout", `getComputedStyle(document.querySelector("#rows td.c-modified")).display === "none"`)
	if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %v px wide at 390 px", w)
	}
	visible := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#rows tr[data-name="omega.csv"] .row-actions > *'), (b) => b.offsetParent ? b.textContent : "").filter(Boolean)`)
	if !reflect.DeepEqual(visible, []string{"Download", "Rename", "Delete"}) {
		t.Errorf("at 390 px a file offers %q", visible)
	}
	p.screenshot("web-browser-390.png")
	p.click(`#rows tr[data-name="omega.csv"] button.open`)
	p.poll("the preview below the list", `!document.getElementById("panel").hidden`)
	if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("with the preview open the page is %v px wide at 390 px", w)
	}
	p.screenshot("web-browser-preview-390.png")
}

// checkHostileMarkdown previews 250 KB of Markdown made to cost a naive
// renderer quadratic time (unclosed emphasis and links, a heading of
// spaces) or a stack overflow (quotes nested 50,000 deep): it is shown,
// with the quotes nested 8 deep and the rest as text.
func checkHostileMarkdown(p browserPage) {
	t, ctx := p.t, p.ctx
	t.Helper()
	hostile := strings.Repeat("*a ", 30000) + "\n\n" + strings.Repeat("[a", 30000) + "\n\n# " + strings.Repeat(" ", 50000) +
		"x\n\n" + strings.Repeat("> ", 25000) + "deep\n"
	storetest.Put(t, p.e.store, "browse-2", "hostile.md", []byte(hostile))
	run(t, ctx, chromedp.Navigate(p.e.srv.URL+"/#c=browse-2"))
	p.waitRows("the hostile file's row", "hostile.md")
	p.click(`#rows tr[data-name="hostile.md"] button.open`)
	p.poll("the hostile Markdown is not shown", `!!document.querySelector("#panel-body .markdown h1")`)
	if got := eval[float64](t, ctx, `document.querySelectorAll("#panel-body .markdown blockquote").length`); got != 8 {
		t.Errorf("quotes nested %v deep, want 8", got)
	}
	if !strings.Contains(eval[string](t, ctx, `document.querySelector("#panel-body .markdown").textContent`), "*a *a *a") {
		t.Error("unclosed emphasis is not shown as text")
	}
}
