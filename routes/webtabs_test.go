package routes

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/internal/samples"
	"convfiles/internal/storetest"
	"convfiles/runtime"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// openStreams is how many event streams the server holds open.
func openStreams(s *Server) int {
	c := s.limits.streams
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all
}

// TestEightTabsShareOneStream opens the page of one conversation in 8
// tabs of one browser, which allows 6 connections to a server: the tabs
// share one event stream, so every tab loads, a file a script writes
// shows in all 8, and a REST call from the first answers. When tabs
// close, the stream stays with those left open.
func TestEightTabsShareOneStream(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "tabs-1"
	storetest.Put(t, e.store, conv, "start.txt", []byte("start\n"))
	first := newBrowser(t)
	run(t, first, chromedp.Navigate(e.srv.URL+"/#c="+conv)) // starts the browser the other tabs open in
	tabs := []context.Context{first}
	for range 7 {
		tab, cancel := chromedp.NewContext(first)
		t.Cleanup(cancel)
		tabs = append(tabs, tab)
	}
	for i, tab := range tabs {
		if i > 0 {
			run(t, tab, chromedp.Navigate(e.srv.URL+"/#c="+conv))
		}
		p := browserPage{t: t, ctx: tab, e: e}
		p.poll(fmt.Sprintf("tab %d did not load its files and go live", i+1),
			`!!document.querySelector('#rows tr[data-name="start.txt"]') && document.getElementById("live").textContent === "live"`)
	}
	if n := openStreams(e.server); n != 1 {
		t.Errorf("8 tabs hold %d event streams, want 1", n)
	}

	sp, err := e.store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if rep, err := runtime.New(runtime.Config{}).Run(context.Background(), runtime.Request{Space: sp,
		Source: `write_file("from-script.csv", "region,total\nnorth,12\n")`}); err != nil {
		t.Fatalf("script: %v %+v", err, rep)
	}
	for i, tab := range tabs {
		p := browserPage{t: t, ctx: tab, e: e}
		p.poll(fmt.Sprintf("tab %d does not show the script's file", i+1), `!!document.querySelector('#rows tr[data-name="from-script.csv"]')`)
	}
	status := eval[float64](t, first, `fetch("/api/conversations", {signal: AbortSignal.timeout(10000)}).then((r) => r.status, () => -1)`)
	if status != 200 {
		t.Errorf("a REST call from the first tab answered %v with 8 tabs open", status)
	}
	if n := openStreams(e.server); n != 1 {
		t.Errorf("after the write, 8 tabs hold %d event streams, want 1", n)
	}
}

// TestLayoutAndAccessibilityAtEveryWidth shows a folder with an XLSX (a
// long type), a long name, an SVG and a Markdown file at 390, 1280 and
// 1920 px, in the list and card views, with the preview open, the
// recently deleted files shown and a content search's results: the page
// never scrolls sideways, every file's Download, Rename and Delete stay
// on the screen, names stay readable, and axe-core finds no violation in
// any view. Screenshots of each go to the artifacts.
func TestLayoutAndAccessibilityAtEveryWidth(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "layout-1"
	xlsx, err := os.ReadFile(samples.Path(t, "budget.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	long := "reports/quarterly revenue by region and product line, final version for the board (approved).txt"
	storetest.Put(t, e.store, conv, "reports/sales.xlsx", xlsx)
	storetest.Put(t, e.store, conv, long, []byte(strings.Repeat("revenue grew in the north\n", 20)))
	storetest.Put(t, e.store, conv, "reports/logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#2f6fdf"/></svg>`))
	storetest.Put(t, e.store, conv, "reports/notes.md", []byte("# Notes\n\nThe *north* region grew.\n"))
	storetest.Put(t, e.store, conv, "reports/old.txt", []byte("old\n"))
	storetest.Put(t, e.store, conv, "reports/archive/2024.txt", []byte("last year\n"))
	sp, _ := e.store.Space(conv)
	sp.Remove(context.Background(), "reports/old.txt")
	sp.Close()
	ctx := newBrowser(t)
	p := browserPage{t: t, ctx: ctx, e: e}
	axe := axeSource(t)
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/#c="+conv+"&f=reports"))
	p.waitRows("the folder", "reports/archive/", "reports/logo.svg", "reports/notes.md", long, "reports/sales.xlsx")
	if got := eval[string](t, ctx, `(() => { const a = document.querySelector('#rows tr[data-name="reports/sales.xlsx"] abbr.type'); return a.textContent + "|" + a.title })()`); got != "XLSX|application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Errorf("the XLSX's type shows as %q", got)
	}
	p.checkAxe("the list", axe)
	for _, width := range []int{360, 390, 1280, 1920, 2560} {
		run(t, ctx, chromedp.EmulateViewport(int64(width), 900))
		for _, view := range []string{"list", "cards"} {
			run(t, ctx, chromedp.Click(chromedp.ID("view-"+view)))
			p.poll("the "+view+" view", `document.getElementById("workspace").dataset.view === "`+view+`" && document.querySelectorAll("[data-file]").length === 4`)
			p.click(`[data-name="reports/sales.xlsx"] button.preview`)
			p.poll("the spreadsheet preview", `!!document.querySelector("#panel-body .sheet table")`)
			where := fmt.Sprintf("%s view at %d px with the preview open", view, width)
			for _, problem := range p.layoutProblems() {
				t.Errorf("%s: %s", where, problem)
			}
			p.screenshot(fmt.Sprintf("web-%s-preview-%d.png", view, width))
			if width == 1280 {
				p.checkAxe(where, axe)
			}
			p.click("#panel-close")
			p.poll("the preview closed", `document.getElementById("panel").hidden`)
			for _, problem := range p.layoutProblems() {
				t.Errorf("%s view at %d px: %s", view, width, problem)
			}
		}
		run(t, ctx, chromedp.Click(chromedp.ID("view-list")))
		p.poll("the list view", `document.getElementById("workspace").dataset.view === "list"`)
		p.click(`#show-deleted`)
		p.poll("recently deleted", `!!document.querySelector('#deleted-rows tr[data-name="reports/old.txt"]')`)
		p.screenshot(fmt.Sprintf("web-deleted-%d.png", width))
		if w := eval[float64](t, ctx, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
			t.Errorf("recently deleted at %d px scrolls %v px sideways", width, w)
		}
		if width == 1280 {
			p.checkAxe("recently deleted", axe)
		}
		p.click(`#show-deleted`)
	}
	checkSVGAndMarkdownViews(p, axe)
	checkContentSearch(p, axe, long)

	// The name dialog, the selection bar and the page before a
	// conversation is opened.
	p.clickWith(`#rows tr[data-name="reports/notes.md"] td.c-size`, 0)
	p.poll("the selection bar", `!document.getElementById("selection-bar").hidden`)
	p.checkAxe("the selection bar", axe)
	p.click("#sel-move")
	p.poll("the name dialog", `document.getElementById("ask").open`)
	p.checkAxe("the name dialog", axe)
	run(t, ctx, chromedp.KeyEvent("\x1b"))
	p.poll("Escape closes the dialog", `!document.getElementById("ask").open`)
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/"))
	p.poll("the conversations", `document.querySelectorAll("#conv-items li").length === 1 && document.getElementById("workspace").hidden`)
	if got := eval[string](t, ctx, `document.getElementById("live").hidden ? "" : document.getElementById("live").textContent`); got == "offline" {
		t.Error(`before a conversation is opened the header says "offline"`)
	}
	p.checkAxe("the conversation list", axe)
}

// checkSVGAndMarkdownViews previews an SVG (as an image, which runs no
// script) and a Markdown file, each checked by axe-core.
func checkSVGAndMarkdownViews(p browserPage, axe string) {
	t, ctx := p.t, p.ctx
	t.Helper()
	p.press(`#rows tr[data-name="reports/logo.svg"]`, "\r")
	p.poll("the focus moves into the preview", `document.activeElement.id === "panel-title"`)
	p.poll("the SVG shown as an image", `(() => { const i = document.querySelector("#panel-body img.svg"); return !!i && i.complete && i.naturalWidth === 40 })()`)
	p.checkAxe("the SVG preview", axe)
	p.click(`#rows tr[data-name="reports/notes.md"] button.open`)
	p.poll("the Markdown preview", `!!document.querySelector("#panel-body .markdown h1")`)
	p.checkAxe("the Markdown preview", axe)
	run(t, ctx, chromedp.KeyEvent("\x1b"))
	p.poll("Escape closes the preview", `document.getElementById("panel").hidden`)
	if got := eval[string](t, ctx, `document.activeElement.dataset.name || document.activeElement.outerHTML.slice(0, 80)`); got != "reports/logo.svg" {
		t.Errorf("after Escape the focus is on %q, not the row that opened the preview", got)
	}
}

// checkContentSearch searches inside the files: each matching line with
// its number, grouped by file, the text marked.
func checkContentSearch(p browserPage, axe, long string) {
	t, ctx := p.t, p.ctx
	t.Helper()
	run(t, ctx, chromedp.SetValue(chromedp.ID("search-in"), "contents"))
	eval[bool](t, ctx, `document.getElementById("search-in").dispatchEvent(new Event("change")), true`)
	p.search("NORTH")
	p.poll("the content search's results", `document.querySelectorAll("#hit-items li.hit").length === 2`)
	got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#hit-items li.hit"), (h) => h.dataset.name + " " + h.querySelectorAll(".hit-lines li").length + " " + h.querySelector("mark").textContent)`)
	want := []string{"reports/notes.md 1 north", long + " 20 north"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("found %q, want %q", got, want)
	}
	if line := eval[string](t, ctx, `document.querySelector('#hit-items li.hit[data-name="reports/notes.md"] .hit-lines li').textContent`); line != "3: The *north* region grew." {
		t.Errorf("the matching line shows as %q", line)
	}
	p.checkAxe("the content search", axe)
	p.screenshot("web-content-search-1920.png")
	p.click(`#hit-items li.hit[data-name="reports/notes.md"] button.open`)
	p.poll("a result opens its file", `!!document.querySelector("#panel-body .markdown h1")`)
	run(t, ctx, chromedp.SetValue(chromedp.ID("search-in"), "names"))
	eval[bool](t, ctx, `document.getElementById("search-in").dispatchEvent(new Event("change")), true`)
	p.search("")
}

// TestLiveWithoutSharedWorkers runs the page in a browser without shared
// workers (as some mobile browsers are): the tab holds its own stream
// only while it is shown, and a file written while it was hidden shows
// once it is shown again.
func TestLiveWithoutSharedWorkers(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	const conv = "solo-1"
	storetest.Put(t, e.store, conv, "start.txt", []byte("start\n"))
	ctx := newBrowser(t)
	run(t, ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete window.SharedWorker;
			Object.defineProperty(document, "hidden", {get: () => !!window.pretendHidden});`})
		return err
	}))
	p := browserPage{t: t, ctx: ctx, e: e}
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/#c="+conv))
	p.poll("the page goes live", `!!document.querySelector('#rows tr[data-name="start.txt"]') && document.getElementById("live").textContent === "live"`)
	storetest.Put(t, e.store, conv, "shown.txt", []byte("while shown\n"))
	p.waitRows("a write while shown", "shown.txt", "start.txt")
	if n := openStreams(e.server); n != 1 {
		t.Errorf("a shown tab holds %d streams, want 1", n)
	}

	eval[bool](t, ctx, `window.pretendHidden = true, document.dispatchEvent(new Event("visibilitychange")), true`)
	p.poll("a hidden tab lets its stream go", `document.getElementById("live").textContent !== "live"`)
	deadline := time.Now().Add(15 * time.Second)
	for openStreams(e.server) != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := openStreams(e.server); n != 0 {
		t.Errorf("a hidden tab holds %d streams, want 0", n)
	}
	storetest.Put(t, e.store, conv, "hidden.txt", []byte("while hidden\n"))
	eval[bool](t, ctx, `window.pretendHidden = false, document.dispatchEvent(new Event("visibilitychange")), true`)
	p.waitRows("the write made while hidden, once shown", "hidden.txt", "shown.txt", "start.txt")
	p.poll("live again", `document.getElementById("live").textContent === "live"`)
}
